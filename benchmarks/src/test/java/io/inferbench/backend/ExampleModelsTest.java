package io.inferbench.backend;

import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The generated example models (docs/models.md) open, plan and run on their engines: an image CNN and an audio-like
 * encoder on ONNX Runtime, a TorchScript module with an input spec on DJL, whose output is checked against the same
 * computation done here in double precision, from the values the harness generated for it.
 */
class ExampleModelsTest {
    private static final long SEED = 42;
    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        ExampleModels.write(dir, SEED);
    }

    private static SessionSpec spec(ModelSource source, InputOptions inputs) {
        return new SessionSpec(source, source.file(), SEED, Device.parse("cpu"), 1, 1, false, inputs);
    }

    @Test
    void theImageCnnRunsBatchOnlyOnOnnxRuntime() {
        ModelSource cnn = ModelSource.parse(dir.resolve(ExampleModels.IMAGE_CNN).toString());
        try (OnnxRuntimeSession session = (OnnxRuntimeSession) new OnnxRuntimeBackend().open(spec(cnn, InputOptions.NONE))) {
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
        try (OnnxRuntimeSession session = (OnnxRuntimeSession) new OnnxRuntimeBackend().open(spec(cnn, spec))) {
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
                () -> new OnnxRuntimeBackend().open(spec(audio, InputOptions.NONE)));
        assertTrue(unbound.getMessage().contains("[frames]"), unbound.getMessage());
        try (InferenceSession session = new OnnxRuntimeBackend().open(spec(audio, new InputOptions("frames", Map.of(), null)))) {
            assertEquals(List.of("input_features float32 [batch,frames,80] normal(0,1)", "speaker float32 [batch,16] normal(0,1)"),
                    session.inputs().describe());
            session.prepare(3, 50, new long[150]);
            session.forward();
            assertEquals("pinned: run() writes into preallocated host buffers; first and last element read", session.outputHandling());
        }
    }

    /** Each pixel's channels projected by {@code projection} [256, 3], ReLU, the mean over the 64 x 64 pixels; in double. */
    private static double[] reference(float[] pixels, float[] projection, int batch) {
        int outputs = 256;
        int pixelsPerImage = 64 * 64;
        double[] out = new double[batch * outputs];
        for (int b = 0; b < batch; b++) {
            for (int o = 0; o < outputs; o++) {
                double sum = 0;
                for (int p = 0; p < pixelsPerImage; p++) {
                    double v = 0;
                    for (int c = 0; c < 3; c++) {
                        v += (double) projection[o * 3 + c] * pixels[(b * 3 + c) * pixelsPerImage + p];
                    }
                    sum += Math.max(0, v);
                }
                out[b * outputs + o] = sum / pixelsPerImage;
            }
        }
        return out;
    }

    private static float[] values(InputPlan plan, PlannedInput input, int batch) {
        ByteBuffer bytes = ByteBuffer.allocate((int) InputPlan.elements(plan.shape(input, batch, 0)) * 4).order(ByteOrder.nativeOrder());
        new InputFill(plan, SEED).write(input, bytes, batch, 0, new long[0], null);
        bytes.flip();
        float[] values = new float[bytes.remaining() / 4];
        bytes.asFloatBuffer().get(values);
        return values;
    }

    @Test
    void theTorchScriptModuleRunsOnDjlWithItsSpecAndMatchesAnIndependentComputation() {
        ModelSource module = ModelSource.parse(dir.resolve(ExampleModels.PIXEL_MODULE).toString());
        BenchmarkException noSpec = assertThrows(BenchmarkException.class,
                () -> new DjlPyTorchBackend(TestPaths.djlCache()).open(spec(module, InputOptions.NONE)));
        assertTrue(noSpec.getMessage().contains("forward(pixel_values, projection)"), noSpec.getMessage());
        InputOptions inputs = new InputOptions(null, Map.of(), dir.resolve(ExampleModels.PIXEL_MODULE_SPEC));
        try (DjlPyTorchSession session = (DjlPyTorchSession) new DjlPyTorchBackend(TestPaths.djlCache()).open(spec(module, inputs))) {
            InputPlan plan = session.inputs();
            assertTrue(plan.batchOnly());
            int batch = 2;
            session.prepare(batch, 0, new long[0]);
            float[] actual = session.forwardValues();
            double[] expected = reference(values(plan, plan.inputs().get(0), batch), values(plan, plan.inputs().get(1), batch), batch);
            assertEquals(expected.length, actual.length);
            double scale = 0;
            for (int i = 0; i < expected.length; i++) {
                scale = Math.max(scale, Math.abs(expected[i]));
                assertEquals(expected[i], actual[i], 1e-4 + 1e-4 * Math.abs(expected[i]), "output " + i);
            }
            assertTrue(scale > 0.05, "the outputs are not trivially zero: " + scale);
        }
    }
}
