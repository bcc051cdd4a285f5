package io.inferbench.engine.onnxruntime;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.SessionSpec;
import io.inferbench.generate.Generation;
import io.inferbench.measure.NanoClock;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderNames;
import io.inferbench.model.DecoderReference;
import io.inferbench.model.DecoderWeights;
import io.inferbench.model.ExampleModels;
import io.inferbench.model.ExportFolder;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.OnnxDecoderExporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Export folders as optimum writes them (the examples' merged decoder and split pair, the user decoder's weights under
 * Hugging Face's names), generating the double-precision reference's tokens on ONNX Runtime, and every folder that cannot
 * be generated refused with the file and the fix.
 */
class ExportFolderTest {
    private static final long SEED = 42;
    private static final DecoderConfig C = ExampleModels.USER_DECODER_CONFIG;
    private static final long[] PROMPT = {5, 17, 300, 2, 999, 41, 7, 64, 5, 900, 12, 3};
    private static final int BATCH = 2;
    private static final int LENGTH = 6;
    private static final int NEW_TOKENS = 7;

    @TempDir
    static Path examples;
    private static long[][] expected;

    @BeforeAll
    static void write() {
        ExampleModels.write(examples, SEED);
        DecoderReference reference = new DecoderReference(DecoderWeights.generate(C, SEED));
        expected = new long[BATCH][];
        for (int b = 0; b < BATCH; b++) {
            expected[b] = reference.generate(java.util.Arrays.copyOfRange(PROMPT, b * LENGTH, (b + 1) * LENGTH), NEW_TOKENS).tokens();
        }
    }

    private static SessionSpec spec(Path dir) {
        ModelSource source = ModelSource.parse(dir.toString());
        return new SessionSpec(source, dir, SEED, Device.parse("cpu"), 1, 1, false);
    }

    private static void generatesTheReference(Path dir) {
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec(dir), List.of())) {
            for (int round = 0; round < 2; round++) {
                Generation g = Generation.run(decoder, PROMPT, BATCH, LENGTH, NEW_TOKENS, NanoClock.SYSTEM);
                for (int b = 0; b < BATCH; b++) {
                    assertArrayEquals(expected[b], g.tokens()[b], dir.getFileName() + ", sequence " + b + ", round " + round);
                }
                long positions = LENGTH + NEW_TOKENS - 1;
                assertEquals(2L * C.layers() * BATCH * C.heads() * positions * C.headDim() * Float.BYTES, g.cacheBytes(),
                        "the cache's bytes: 2 x layers x batch x heads x positions x headDim x 4");
            }
        }
    }

    @Test
    void aMergedDecoderIsFedItsBranchFlagAndGeneratesTheReferenceTokens() {
        Path dir = examples.resolve(ExampleModels.MERGED_FOLDER);
        generatesTheReference(dir);
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec(dir), List.of())) {
            assertEquals("use_cache_branch", decoder.layout().branchFlag());
            assertTrue(decoder.layout().describe().contains("use_cache_branch false on the prefill"), decoder.layout().describe());
            String how = decoder.facts("test").toString();
            assertTrue(how.contains("decoder_model_merged.onnx runs the prefill and the decode steps")
                    && how.contains("vocab_size 1000") && how.contains("use_cache_branch false on the prefill"), how);
        }
    }

    @Test
    void aSplitPairRunsThePrefillAndTheStepsInTwoSessions() {
        Path dir = examples.resolve(ExampleModels.SPLIT_FOLDER);
        generatesTheReference(dir);
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec(dir), List.of())) {
            assertEquals(null, decoder.layout().branchFlag());
            String how = decoder.facts("test").toString();
            assertTrue(how.contains("decoder_model.onnx runs the prefill and decoder_with_past_model.onnx the decode steps"), how);
        }
    }

    @Test
    void aFoldersIdentityIsEveryFileItRuns(@TempDir Path dir) throws IOException {
        Path folder = copy(examples.resolve(ExampleModels.SPLIT_FOLDER), dir.resolve("split"));
        ModelResolver resolver = new ModelResolver(dir.resolve("cache"), SEED);
        String before = resolver.resolve(ModelSource.parse(folder.toString())).sha256();
        assertEquals(before, resolver.resolve(ModelSource.parse(folder.toString())).sha256(), "the same files hash the same");
        Files.writeString(folder.resolve("decoder_with_past_model.onnx_data"), "external weights");
        String withData = resolver.resolve(ModelSource.parse(folder.toString())).sha256();
        assertNotEquals(before, withData, "a graph's external data is part of the model");
        assertEquals(List.of("decoder_model.onnx", "decoder_with_past_model.onnx", "decoder_with_past_model.onnx_data"),
                ExportFolder.read(folder).files().stream().map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void aFolderWithoutADecoderIsRefusedWithWhatItHolds(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("tokenizer.json"), "{}");
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> ModelSource.parse(dir.toString()));
        assertTrue(e.getMessage().contains("holds none of the decoders") && e.getMessage().contains("tokenizer.json")
                && e.getMessage().contains("decoder_model_merged.onnx"), e.getMessage());
    }

    @Test
    void halfASplitPairIsRefused(@TempDir Path dir) throws IOException {
        Files.copy(examples.resolve(ExampleModels.SPLIT_FOLDER).resolve(ExportFolder.DECODER), dir.resolve(ExportFolder.DECODER));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> ModelSource.parse(dir.toString()));
        assertTrue(e.getMessage().contains("holds decoder_model.onnx without decoder_with_past_model.onnx"), e.getMessage());
    }

    @Test
    void anEncoderWithoutADecoderIsRefused(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(ExportFolder.ENCODER), "");
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> ModelSource.parse(dir.toString()));
        assertTrue(e.getMessage().contains("an encoder-decoder export") && e.getMessage().contains("with no decoder")
                && e.getMessage().contains("-Dbench.model=" + dir.resolve(ExportFolder.ENCODER)), e.getMessage());
    }

    @Test
    void aConfigOfAnotherModelIsRefused(@TempDir Path dir) throws IOException {
        Path folder = copy(examples.resolve(ExampleModels.MERGED_FOLDER), dir.resolve("merged"));
        Files.writeString(folder.resolve(ExportFolder.CONFIG), ExampleModels.config(new DecoderConfig(32000, 64, 3, 8, 256, 512)));
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> new OnnxRuntimeEngine().openDecoder(spec(folder), List.of()).close());
        assertTrue(e.getMessage().contains("config.json does not describe the graphs beside it")
                && e.getMessage().contains("3 layers, so 6 key and value caches, and the graph takes 4")
                && e.getMessage().contains("8 key/value heads") && e.getMessage().contains("vocab_size 32000"), e.getMessage());
        Files.writeString(folder.resolve(ExportFolder.CONFIG), "{\"vocab_size\": \"many\"}");
        e = assertThrows(BenchmarkException.class, () -> ModelSource.parse(folder.toString()));
        assertTrue(e.getMessage().contains("\"vocab_size\" is \"many\", not a whole number"), e.getMessage());
    }

    @Test
    void aMergedDecoderWithoutItsBranchFlagIsRefused(@TempDir Path dir) throws IOException {
        try (OutputStream out = Files.newOutputStream(dir.resolve(ExportFolder.MERGED))) {
            OnnxDecoderExporter.export(DecoderWeights.generate(C, SEED), "no flag", DecoderNames.HUGGING_FACE).writeTo(out);
        }
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> new OnnxRuntimeEngine().openDecoder(spec(dir), List.of()).close());
        assertTrue(e.getMessage().contains("has no use_cache_branch input"), e.getMessage());
    }

    @Test
    void aSplitPairThatDisagreesIsRefused(@TempDir Path dir) throws IOException {
        Path folder = copy(examples.resolve(ExampleModels.SPLIT_FOLDER), dir.resolve("split"));
        DecoderConfig otherHeads = new DecoderConfig(C.vocabSize(), C.hidden(), C.layers(), 8, C.ffnHidden(), C.maxPositions());
        try (OutputStream out = Files.newOutputStream(folder.resolve(ExportFolder.DECODER))) {
            OnnxDecoderExporter.export(DecoderWeights.generate(otherHeads, SEED), "8 heads", DecoderNames.HUGGING_FACE,
                    OnnxDecoderExporter.Variant.PREFILL).writeTo(out);
        }
        Files.delete(folder.resolve(ExportFolder.CONFIG));
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> new OnnxRuntimeEngine().openDecoder(spec(folder), List.of()).close());
        assertTrue(e.getMessage().contains("The two decoders of the split export disagree")
                && e.getMessage().contains("present.0.key [batch, 8, total_sequence, 8] differs from decoder_with_past_model.onnx's "
                + "past_key_values.0.key [batch, 4, positions, 16] at axis 1"), e.getMessage());
    }

    private static Path copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
        return to;
    }
}
