package io.inferbench.engine.onnxruntime;

import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession.SessionOptions;
import ai.onnxruntime.OrtSession;
import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.engine.Device;
import io.inferbench.engine.EnginePeaks;
import io.inferbench.engine.PassTimer;
import io.inferbench.model.OnnxGraphBuilder;

import java.nio.ByteBuffer;
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
 *   <li>{@code Identity(s)}: the cost of a call;</li>
 *   <li>{@code ReduceSum(MatMulInteger(A, B, z))}, A uint8 and B int8 {@code n x n}, the activations' zero point {@code
 *       z} the graph input: {@code 2 n^3} integer operations, the kernel ONNX Runtime's dynamic quantization runs (u8 x s8
 *       with int32 accumulation, VNNI where the CPU has it); on the CPU, where the int8 variants run;</li>
 *   <li>on CUDA, {@code ReduceSum(MatMul(A * Cast(s), B))} with A and B float16: the half-precision roof (tensor
 *       cores). ONNX Runtime's CPU build has no float16 MatMul on x86, so there is none on the CPU.</li>
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
            Double integerOps = null;
            Double halfFlops = null;
            String more;
            if (device.isCuda()) {
                halfFlops = 2.0 * n * n * n / medianSeconds(matmulGraph(n, true), device, intraOpThreads, interOpThreads,
                        secondsPerMeasure);
                more = Text.f("; float16 MatMul %dx%d (then ReduceSum)", n, n);
            } else {
                integerOps = 2.0 * n * n * n / medianSeconds(integerMatmulGraph(n), zeroPoint(), device, intraOpThreads,
                        interOpThreads, secondsPerMeasure);
                more = Text.f("; MatMulInteger uint8 x int8 %dx%d, int32 accumulation (then ReduceSum)", n, n);
            }
            return new EnginePeaks(2.0 * n * n * n / matmulSeconds, 6.0 * m * Float.BYTES / streamSeconds, floorSeconds * 1e3,
                    Text.f("ONNX Runtime, graph optimizations off, data as initializers on the device: MatMul %dx%d (then ReduceSum); "
                            + "Mul+Add+ReduceSum over %d floats (%d MB moved per pass); Identity on one float%s. Median of about %s s "
                            + "of passes each", n, n, m, 6L * m * Float.BYTES >> 20, more, Text.plain(secondsPerMeasure)),
                    integerOps, halfFlops);
        } catch (OrtException e) {
            throw new BenchmarkException("The calibration graphs could not run on " + device + " with ONNX Runtime: " + e.getMessage(), e);
        }
    }

    /** The graph input {@code s} of the float graphs: one float, 1. */
    private static OnnxTensor one() throws OrtException {
        return OnnxTensor.createTensor(OnnxRuntimeEngine.environment(), FloatBuffer.wrap(new float[] {1f}), new long[] {1});
    }

    /** The graph input {@code z} of the integer graph: the activations' zero point, one uint8, 0. */
    private static OnnxTensor zeroPoint() throws OrtException {
        return OnnxTensor.createTensor(OnnxRuntimeEngine.environment(), ByteBuffer.wrap(new byte[] {0}), new long[] {1},
                OnnxJavaType.UINT8);
    }

    private static double medianSeconds(byte[] model, Device device, int intraOpThreads, int interOpThreads,
                                        double secondsPerMeasure) throws OrtException {
        return medianSeconds(model, one(), device, intraOpThreads, interOpThreads, secondsPerMeasure);
    }

    /** The median pass of {@code model} fed {@code input} (closed here) as its one graph input. */
    private static double medianSeconds(byte[] model, OnnxTensor input, Device device, int intraOpThreads, int interOpThreads,
                                        double secondsPerMeasure) throws OrtException {
        OrtEnvironment env = OnnxRuntimeEngine.environment();
        try (SessionOptions options = new SessionOptions()) {
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(interOpThreads);
            options.setOptimizationLevel(SessionOptions.OptLevel.NO_OPT);
            if (device.isCuda()) {
                options.addCUDA(device.index());
            }
            try (OrtSession session = env.createSession(model, options); OnnxTensor s = input) {
                Map<String, OnnxTensor> inputs = Map.of(session.getInputNames().iterator().next(), s);
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
        return matmulGraph(n, false);
    }

    /**
     * {@code 2 n^3} FLOPs: {@code ReduceSum(MatMul(A * s, B))} in float32, or with {@code half} in float16, the float graph
     * input cast to float16 first.
     */
    static byte[] matmulGraph(int n, boolean half) {
        OnnxGraphBuilder g = new OnnxGraphBuilder(half ? "calibration_matmul_half" : "calibration_matmul");
        g.input("s", TensorProto.DataType.FLOAT, 1L);
        String a = half ? g.float16Initializer("A", random(n * n, 1), n, n) : g.floatInitializer("A", random(n * n, 1), n, n);
        String b = half ? g.float16Initializer("B", random(n * n, 2), n, n) : g.floatInitializer("B", random(n * n, 2), n, n);
        String s = half ? g.node("Cast", new String[] {"s"}, OnnxGraphBuilder.intAttribute("to", TensorProto.DataType.FLOAT16.getNumber()))
                : "s";
        String product = g.node("MatMul", g.node("Mul", a, s), b);
        g.nodeWithOutput("ReduceSum", new String[] {product}, "y", OnnxGraphBuilder.intAttribute("keepdims", 0));
        g.output("y", half ? TensorProto.DataType.FLOAT16 : TensorProto.DataType.FLOAT);
        return g.build("calibration", half ? "a large float16 matrix product" : "a large matrix product").toByteArray();
    }

    /** {@code 2 n^3} integer operations: uint8 A (its zero point the graph input) times int8 B, int32 out, then summed. */
    static byte[] integerMatmulGraph(int n) {
        OnnxGraphBuilder g = new OnnxGraphBuilder("calibration_matmul_integer");
        g.input("z", TensorProto.DataType.UINT8, 1L);
        SplittableRandom random = new SplittableRandom(5);
        byte[] a = new byte[n * n];
        byte[] b = new byte[n * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = (byte) random.nextInt(256);
            b[i] = (byte) (random.nextInt(255) - 127);
        }
        String aq = g.uint8Initializer("A", a, n, n);
        String bq = g.int8Initializer("B", b, n, n);
        String product = g.node("MatMulInteger", aq, bq, "z");
        g.nodeWithOutput("ReduceSum", new String[] {product}, "y", OnnxGraphBuilder.intAttribute("keepdims", 0));
        g.output("y", TensorProto.DataType.INT32);
        return g.build("calibration", "a large integer matrix product").toByteArray();
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
