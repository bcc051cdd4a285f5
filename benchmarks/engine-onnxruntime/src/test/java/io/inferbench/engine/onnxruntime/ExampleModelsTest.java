package io.inferbench.engine.onnxruntime;

import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
import io.inferbench.engine.ExampleModelSessions;
import io.inferbench.engine.InferenceSession;
import io.inferbench.inputs.InputFill;
import io.inferbench.inputs.InputOptions;
import io.inferbench.inputs.InputPlan;
import io.inferbench.inputs.PlannedInput;
import io.inferbench.model.ExampleModels;
import io.inferbench.model.ModelSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.inferbench.engine.ExampleModelSessions.SEED;
import static io.inferbench.engine.ExampleModelSessions.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generated example models (docs/models.md) open, plan and run on ONNX Runtime: an image CNN and an audio-like
 * encoder ({@code TorchScriptExampleTest} runs the TorchScript module on DJL).
 */
class ExampleModelsTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        ExampleModelSessions.write(dir);
    }

    @Test
    void theImageCnnRunsBatchOnlyOnOnnxRuntime() {
        ModelSource cnn = ModelSource.parse(dir.resolve(ExampleModels.IMAGE_CNN).toString());
        try (OnnxRuntimeSession session = (OnnxRuntimeSession) new OnnxRuntimeEngine().open(spec(cnn, InputOptions.NONE))) {
            assertTrue(session.inputs().batchOnly());
            session.prepare(4, 0, new long[0]);
            session.forward();
            assertEquals(40, session.pinnedOutput(0).remaining(), "logits [batch, 10]");
        }
    }

    @Test
    void theImageCnnTakesRealRowsFromItsSpec() {
        ModelSource cnn = ModelSource.parse(dir.resolve(ExampleModels.IMAGE_CNN).toString());
        InputOptions spec = new InputOptions(null, Map.of(), dir.resolve(ExampleModels.IMAGE_CNN_SPEC));
        try (OnnxRuntimeSession session = (OnnxRuntimeSession) new OnnxRuntimeEngine().open(spec(cnn, spec))) {
            assertTrue(session.inputs().inputs().get(0).valuesLabel().startsWith("npy pixels.npy [32,3,64,64] sha256 "));
            session.prepare(2, 0, new long[0]);
            session.forward();
            FloatBuffer logits = session.pinnedOutput(0);
            assertEquals(20, logits.remaining());
            float first = logits.get(0);
            session.prepare(2, 0, new long[0]);
            session.forward();
            assertTrue(first != session.pinnedOutput(0).get(0), "the next batch takes the next rows");
        }
    }

    @Test
    void theAudioEncoderSweepsFramesWithItsSecondInputFollowingTheBatch() {
        ModelSource audio = ModelSource.parse(dir.resolve(ExampleModels.AUDIO_ENCODER).toString());
        BenchmarkException unbound = assertThrows(BenchmarkException.class,
                () -> new OnnxRuntimeEngine().open(spec(audio, InputOptions.NONE)));
        assertTrue(unbound.getMessage().contains("[frames]"), unbound.getMessage());
        try (InferenceSession session = new OnnxRuntimeEngine().open(spec(audio, new InputOptions("frames", Map.of(), null)))) {
            assertEquals(List.of("input_features float32 [batch,frames,80] normal(0,1)", "speaker float32 [batch,16] normal(0,1)"),
                    session.inputs().describe());
            session.prepare(3, 50, new long[150]);
            session.forward();
            assertEquals("pinned: run() writes into preallocated host buffers; first and last element read", session.facts("test").outputHandling());
        }
    }
}
