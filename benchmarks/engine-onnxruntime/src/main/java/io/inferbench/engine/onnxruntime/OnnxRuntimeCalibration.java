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
import io.inferbench.probe.StreamArrays;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * ONNX Runtime's peaks on a device, with three graphs built in memory, each with its data as initializers (on the
 * device) and a one-element graph input that keeps the optimizer from folding it away, and a one-element output, so no
 * copy between host and device is timed:
 * <ul>
 *   <li>{@code ReduceSum(MatMul(A * s, B))}, A and B {@code n x n}: {@code 2 n^3} FLOPs;</li>
 *   <li>on the CPU, {@code C = Add(A, B)} over {@code m} floats each ({@link StreamArrays}: together several times the
 *       last-level cache), the output bound before the run to A's own buffer, so that the add runs in place and its traffic
 *       is exact: A and B read once, A written onto lines just read, {@code 3 m * 4} bytes and no write-allocate (the
 *       convention of the machine's own roof, {@code io.inferbench.roofline.MachineBandwidth}, and of DJL's in-place
 *       kernel). ONNX Runtime writes a pre-bound output where it is, and an element-wise add reads each element before it
 *       writes it; the binding is checked on one element before timing, and where ONNX Runtime did not write in place
 *       the add is counted out of place, {@code 4 m * 4} bytes with the write-allocate read of C, and the method says so;</li>
 *   <li>on CUDA, {@code ReduceSum(A * s + B)}, A and B initializers of {@code m} floats on the device: the multiply reads A
 *       and writes m floats, the add reads them and B and writes m more, the sum reads those: {@code 6 m * 4} bytes (a GPU
 *       writes whole sectors without reading them first);</li>
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
        int m = device.isCuda() ? 32 << 20 : (int) Math.min(MAX_CPU_STREAM_ELEMENTS, StreamArrays.arrayBytes() / Float.BYTES);
        try {
            double matmulSeconds = medianSeconds(matmulGraph(n), device, intraOpThreads, interOpThreads, secondsPerMeasure);
            Stream stream = device.isCuda()
                    ? new Stream(6.0 * m * Float.BYTES / medianSeconds(streamGraph(m), device, intraOpThreads, interOpThreads,
                    secondsPerMeasure), Text.f("Mul+Add+ReduceSum over %d floats on the device (%d MB moved per pass: 6 "
                    + "arrays, a GPU's writes read nothing first)", m, 6L * m * Float.BYTES >> 20))
                    : inPlaceAdd(m, intraOpThreads, interOpThreads, secondsPerMeasure);
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
            return new EnginePeaks(2.0 * n * n * n / matmulSeconds, stream.bytesPerSecond(), floorSeconds * 1e3,
                    Text.f("ONNX Runtime, graph optimizations off: MatMul %dx%d (then ReduceSum, data as initializers on the "
                            + "device); %s; Identity on one float%s. Median of about %s s of passes each", n, n, stream.method(),
                            more, Text.plain(secondsPerMeasure)), integerOps, halfFlops);
        } catch (OrtException e) {
            throw new BenchmarkException("The calibration graphs could not run on " + device + " with ONNX Runtime: " + e.getMessage(), e);
        }
    }

    /** The CPU's stream arrays hold at most this many floats each (1 GiB): enough to leave any cache, little enough to fit. */
    static final long MAX_CPU_STREAM_ELEMENTS = 1L << 28;

    /** A bandwidth figure and how it was made. */
    record Stream(double bytesPerSecond, String method) {
    }

    /**
     * {@code C = A + B} with C bound to A's buffer (in place, exact traffic), on the CPU: see the class's comment. The
     * buffers are released as soon as the measure ends (they are hundreds of MB), not at the next collection.
     */
    static Stream inPlaceAdd(int m, int intraOpThreads, int interOpThreads, double secondsPerMeasure) throws OrtException {
        OrtEnvironment env = OnnxRuntimeEngine.environment();
        ByteBuffer a = ByteBuffer.allocateDirect(m * Float.BYTES).order(ByteOrder.nativeOrder());
        ByteBuffer b = ByteBuffer.allocateDirect(m * Float.BYTES).order(ByteOrder.nativeOrder());
        ByteBuffer c = null;
        try (SessionOptions options = new SessionOptions()) {
            options.setIntraOpNumThreads(intraOpThreads);
            options.setInterOpNumThreads(interOpThreads);
            options.setOptimizationLevel(SessionOptions.OptLevel.NO_OPT);
            a.asFloatBuffer().put(0, 1f);
            b.asFloatBuffer().put(0, 2f);
            try (OrtSession session = env.createSession(addGraph(m), options);
                 OnnxTensor ta = OnnxTensor.createTensor(env, a.asFloatBuffer(), new long[] {m});
                 OnnxTensor tb = OnnxTensor.createTensor(env, b.asFloatBuffer(), new long[] {m});
                 OnnxTensor intoA = OnnxTensor.createTensor(env, a.asFloatBuffer(), new long[] {m})) {
                Map<String, OnnxTensor> inputs = Map.of("A", ta, "B", tb);
                session.run(inputs, Map.of("C", intoA)).close();
                boolean inPlace = a.asFloatBuffer().get(0) == 3f;
                b.asFloatBuffer().put(0, 0f);
                OnnxTensor out = intoA;
                if (!inPlace) {
                    c = ByteBuffer.allocateDirect(m * Float.BYTES).order(ByteOrder.nativeOrder());
                    out = OnnxTensor.createTensor(env, c.asFloatBuffer(), new long[] {m});
                }
                try (OnnxTensor bound = out == intoA ? null : out) {
                    Map<String, OnnxTensor> outputs = Map.of("C", out);
                    double seconds = PassTimer.medianNanos(() -> {
                        long start = System.nanoTime();
                        session.run(inputs, outputs).close();
                        return System.nanoTime() - start;
                    }, 3, 5, (long) (secondsPerMeasure * 1e9)) / 1e9;
                    return inPlace
                            ? new Stream(3.0 * m * Float.BYTES / seconds, Text.f("Add over %d floats in place (the output bound to "
                            + "A's buffer): %d MB moved per pass, 3 arrays (read A, read B, write A; no write-allocate read)", m,
                            3L * m * Float.BYTES >> 20))
                            : new Stream(4.0 * m * Float.BYTES / seconds, Text.f("Add over %d floats into a bound output: ONNX "
                            + "Runtime did not write the output bound to A's buffer in place, so %d MB counted per pass, 4 arrays "
                            + "(read A, read B, write C and its write-allocate read)", m, 4L * m * Float.BYTES >> 20));
                }
            }
        } finally {
            release(a);
            release(b);
            if (c != null) {
                release(c);
            }
        }
    }

    /** Frees a direct buffer's memory now (JDK's {@code Unsafe.invokeCleaner}); where that is not allowed, the collector will. */
    private static void release(ByteBuffer buffer) {
        try {
            java.lang.reflect.Field field = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
            field.setAccessible(true);
            Object unsafe = field.get(null);
            unsafe.getClass().getMethod("invokeCleaner", ByteBuffer.class).invoke(unsafe, buffer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // left to the garbage collector
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

    /** {@code C = A + B}, A and B graph inputs of {@code m} floats. */
    static byte[] addGraph(int m) {
        OnnxGraphBuilder g = new OnnxGraphBuilder("calibration_add");
        g.input("A", TensorProto.DataType.FLOAT, (long) m);
        g.input("B", TensorProto.DataType.FLOAT, (long) m);
        g.nodeWithOutput("Add", new String[] {"A", "B"}, "C");
        g.output("C", TensorProto.DataType.FLOAT, (long) m);
        return g.build("calibration", "an element-wise add, its output bound to one input").toByteArray();
    }

    static byte[] identityGraph() {
        OnnxGraphBuilder g = new OnnxGraphBuilder("calibration_floor");
        g.input("s", TensorProto.DataType.FLOAT, 1L);
        g.nodeWithOutput("Identity", new String[] {"s"}, "y");
        g.output("y", TensorProto.DataType.FLOAT, 1L);
        return g.build("calibration", "a near-empty call").toByteArray();
    }
}
