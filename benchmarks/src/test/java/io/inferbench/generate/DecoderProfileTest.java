package io.inferbench.generate;

import io.inferbench.engine.SessionDefaults;
import io.inferbench.inputs.InputOptions;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderNames;
import io.inferbench.model.DecoderWeights;
import io.inferbench.model.ExampleModels;
import io.inferbench.model.ModelSource;
import io.inferbench.model.OnnxDecoderExporter;
import io.inferbench.model.OnnxWeights;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user decoder's work, counted from ONNX Runtime's profile of one generation, against the built-in's count by hand
 * ({@link DecoderWork}, from the shape alone) for the same graph; and the same count whichever way an export folder
 * holds it.
 */
class DecoderProfileTest {
    private static final long SEED = 42;
    private static final DecoderConfig C = ExampleModels.USER_DECODER_CONFIG;
    private static final int PROMPT = 16;
    private static final int BATCH = 4;
    private static final int NEW_TOKENS = 8;

    @TempDir
    static Path dir;
    private static SessionDefaults sessions;

    @BeforeAll
    static void write() throws IOException {
        ExampleModels.write(dir, SEED);
        try (OutputStream out = Files.newOutputStream(dir.resolve("single.onnx"))) {
            OnnxDecoderExporter.export(DecoderWeights.generate(C, SEED), "one file", DecoderNames.HUGGING_FACE).writeTo(out);
        }
        sessions = new SessionDefaults(dir.resolve("cache"), dir.resolve("natives"), SEED, 1, 1, false, InputOptions.NONE);
    }

    private static DecoderProfile.Counted count(String model) {
        return DecoderProfile.count(ModelSource.parse(dir.resolve(model).toString()), sessions, List.of(), PROMPT, BATCH,
                NEW_TOKENS).orElseThrow();
    }

    @Test
    void theProfiledWorkIsTheHandCountsWithinTheElementwiseOps() {
        DecoderProfile.Counted counted = count("single.onnx");
        DecoderWork prefill = DecoderWork.prefill(C, BATCH, PROMPT);
        DecoderWork step = DecoderWork.step(C, BATCH, PROMPT + NEW_TOKENS - 1);
        // the hand count is the matrix products only; the profile adds the element-wise ops (norms, GELU, softmax, adds)
        double prefillRatio = counted.prefill().flops() / prefill.flops();
        double stepRatio = counted.step().flops() / step.flops();
        assertTrue(prefillRatio >= 1 && prefillRatio < 1.15, "prefill FLOPs: profile " + counted.prefill().flops()
                + ", by hand " + prefill.flops());
        assertTrue(stepRatio >= 1 && stepRatio < 1.15, "step FLOPs: profile " + counted.step().flops() + ", by hand " + step.flops());
        long weights = OnnxWeights.initializerBytes(dir.resolve("single.onnx"));
        assertEquals(DecoderWork.weightBytes(C), weights, 256, "the graph's weights but for its embedding tables are the "
                + "built-in's by hand (layers, head, norms), give or take the graph's small constants");
        assertTrue(counted.step().bytes() >= weights, counted.note());
        assertTrue(counted.note().contains("every weight read"), counted.note());
    }

    @Test
    void anExportFolderCountsAsTheSameModelInOneFile() {
        DecoderProfile.Counted single = count("single.onnx");
        for (String folder : List.of(ExampleModels.MERGED_FOLDER, ExampleModels.SPLIT_FOLDER)) {
            DecoderProfile.Counted counted = count(folder);
            assertEquals(1, counted.prefill().flops() / single.prefill().flops(), 0.01, folder + " prefill");
            assertEquals(1, counted.step().flops() / single.step().flops(), 0.01, folder + " step");
            assertTrue(counted.step().bytes() >= 0.95 * single.step().bytes(), folder + " step bytes " + counted.step().bytes());
        }
    }
}
