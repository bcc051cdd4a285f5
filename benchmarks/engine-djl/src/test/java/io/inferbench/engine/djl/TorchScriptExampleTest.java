package io.inferbench.engine.djl;

import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
import io.inferbench.engine.ExampleModelSessions;
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
 * The generated TorchScript example module (docs/models.md) with an input spec on DJL, whose output is checked against the
 * same computation done here in double precision, from the values the harness generated for it.
 */
class TorchScriptExampleTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        ExampleModelSessions.write(dir);
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
                () -> new DjlPyTorchEngine(TestPaths.nativeCache()).open(spec(module, InputOptions.NONE)));
        assertTrue(noSpec.getMessage().contains("forward(pixel_values, projection)"), noSpec.getMessage());
        InputOptions inputs = new InputOptions(null, Map.of(), dir.resolve(ExampleModels.PIXEL_MODULE_SPEC));
        try (DjlPyTorchSession session = (DjlPyTorchSession) new DjlPyTorchEngine(TestPaths.nativeCache()).open(spec(module, inputs))) {
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
