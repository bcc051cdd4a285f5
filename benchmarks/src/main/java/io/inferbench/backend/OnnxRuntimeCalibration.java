package io.inferbench.backend;

import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession.SessionOptions;
import ai.onnxruntime.OrtSession;
import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.model.OnnxGraphBuilder;

import java.nio.FloatBuffer;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * ONNX Runtime's peaks on a device, with three graphs built in memory, each with its data as initializers (on the
 * device) and a one-element graph input that keeps the optimizer from folding it away, and a one-element output, so no
 * copy between host and device is timed:
 * <ul>
 *   <li>{@code ReduceSum(MatMul(A * s, B))}, A and B {@code n x n}: {@code 2 n^3} FLOPs;</li>
 *   <li>{@code ReduceSum(A * s + B)}, A and B of {@code m} floats: the multiply reads A and writes m floats, the add reads
 *       them and B and writes m more, the sum reads those: {@code 6 m * 4} bytes;</li>
 *   <li>{@code Identity(s)}: the cost of a call.</li>
 * </ul>
 * Graph optimizations are off, so the kernels are the ones named. Each is timed for about a second after warm-up; the
 * median pass is kept.
 */
final class OnnxRuntimeCalibration {
    static final double SECONDS_PER_MEASURE = 1.0;

    private OnnxRuntimeCalibration() {
    }

    static EnginePeaks run(Device device, int intraOpThreads, int interOpThreads, double secondsPerMeasure) {
        int n = device.isCuda() ? 4096 : 1024;
        int m = device.isCuda() ? 32 << 20 : 16 << 20;
        try {
            double matmulSeconds = medianSeconds(matmulGraph(n), device, intraOpThreads, interOpThreads, secondsPerMeasure);
            double streamSeconds = medianSeconds(streamGraph(m), device, intraOpThreads, interOpThreads, secondsPerMeasure);
            double floorSeconds = medianSeconds(identityGraph(), device, intraOpThreads, interOpThreads, secondsPerMeasure);
            return new EnginePeaks(2.0 * n * n * n / matmulSeconds, 6.0 * m * Float.BYTES / streamSeconds, floorSeconds * 1e3,
                    Text.f("ONNX Runtime, graph optimizations off, data as initializers on the device: MatMul %dx%d (then ReduceSum); "
                            + "Mul+Add+ReduceSum over %d floats (%d MB moved per pass); Identity on one float. Median of about %s s "
                            + "of passes each", n, n, m, 6L * m * Float.BYTES >> 20, Text.plain(secondsPerMeasure)));
        } catch (OrtException e) {
            throw new BenchmarkException("The calibration graphs could not run on " + device + " with ONNX Runtime: " + e.getMessage(), e);
        }
    }

    private static double medianSeconds(byte[] model, Device device, int intraOpThreads, int interOpThreads,
                                        double secondsPerMeasure) throws OrtException {
        OrtEnvironment env = OnnxRuntimeBackend.environment();
        try (SessionOptions options = new SessionOptions()) {
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(interOpThreads);
            options.setOptimizationLevel(SessionOptions.OptLevel.NO_OPT);
            if (device.isCuda()) {
                options.addCUDA(device.index());
            }
            try (OrtSession session = env.createSession(model, options);
                 OnnxTensor s = OnnxTensor.createTensor(env, FloatBuffer.wrap(new float[] {1f}), new long[] {1})) {
                Map<String, OnnxTensor> inputs = Map.of("s", s);
                return PassTimer.medianNanos(() -> {
                    long start = System.nanoTime();
                    try (OrtSession.Result r = session.run(inputs)) {
                        r.get(0);
                    }
                    return System.nanoTime() - start;
                }, 3, 5, (long) (secondsPerMeasure * 1e9)) / 1e9;
            }
        }
    }

    private static float[] random(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] values = new float[count];
        for (int i = 0; i < count; i++) {
            values[i] = (float) (random.nextDouble() - 0.5);
        }
        return values;
    }

    static byte[] matmulGraph(int n) {
        OnnxGraphBuilder g = new OnnxGraphBuilder("calibration_matmul");
        g.input("s", TensorProto.DataType.FLOAT, 1L);
        String a = g.floatInitializer("A", random(n * n, 1), n, n);
        String b = g.floatInitializer("B", random(n * n, 2), n, n);
        String scaled = g.node("Mul", a, "s");
        String product = g.node("MatMul", scaled, b);
        g.nodeWithOutput("ReduceSum", new String[] {product}, "y", OnnxGraphBuilder.intAttribute("keepdims", 0));
        g.output("y", TensorProto.DataType.FLOAT);
        return g.build("calibration", "a large matrix product").toByteArray();
    }

    static byte[] streamGraph(int m) {
        OnnxGraphBuilder g = new OnnxGraphBuilder("calibration_stream");
        g.input("s", TensorProto.DataType.FLOAT, 1L);
        String a = g.floatInitializer("A", random(m, 3), m);
        String b = g.floatInitializer("B", random(m, 4), m);
        String scaled = g.node("Mul", a, "s");
        String sum = g.node("Add", scaled, b);
        g.nodeWithOutput("ReduceSum", new String[] {sum}, "y", OnnxGraphBuilder.intAttribute("keepdims", 0));
        g.output("y", TensorProto.DataType.FLOAT);
        return g.build("calibration", "streaming element-wise work").toByteArray();
    }

    static byte[] identityGraph() {
        OnnxGraphBuilder g = new OnnxGraphBuilder("calibration_floor");
        g.input("s", TensorProto.DataType.FLOAT, 1L);
        g.nodeWithOutput("Identity", new String[] {"s"}, "y");
        g.output("y", TensorProto.DataType.FLOAT, 1L);
        return g.build("calibration", "a near-empty call").toByteArray();
    }
}
