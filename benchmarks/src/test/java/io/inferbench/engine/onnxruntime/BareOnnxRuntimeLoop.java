package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Calibration tool: the plainest possible timing of {@code OrtSession.run} on an {@code input_ids}-only model,
 * sharing no code with the harness (no histogram, no session wrapper, no JMH), to measure the harness's own
 * overhead against it. Prints the exact-sort p50 and p99 of {@code passes} runs after {@code warmup} runs.
 * With {@code pinned}, the {@code logits [batch, 2]} output is preallocated as the harness does for the
 * built-in model; with {@code allocated}, ONNX Runtime allocates it on every call.
 *
 * <pre>java -cp benchmarks/target/classes:$(deps) io.inferbench.engine.onnxruntime.BareOnnxRuntimeLoop MODEL BATCH SEQ THREADS WARMUP PASSES pinned|allocated</pre>
 */
public final class BareOnnxRuntimeLoop {
    private BareOnnxRuntimeLoop() {
    }

    public static void main(String[] args) throws Exception {
        String model = args[0];
        int batch = Integer.parseInt(args[1]);
        int seq = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        int warmup = Integer.parseInt(args[4]);
        int passes = Integer.parseInt(args[5]);
        boolean pinned = args.length > 6 && args[6].equals("pinned");
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            try (OrtSession session = env.createSession(model, options)) {
                LongBuffer ids = ByteBuffer.allocateDirect(batch * seq * Long.BYTES).order(ByteOrder.nativeOrder()).asLongBuffer();
                SplittableRandom random = new SplittableRandom(42);
                for (int i = 0; i < batch * seq; i++) {
                    ids.put(1000 + random.nextInt(1000));
                }
                ids.rewind();
                try (OnnxTensor input = OnnxTensor.createTensor(env, ids, new long[] {batch, seq});
                     OnnxTensor logits = OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(batch * 2 * Float.BYTES)
                             .order(ByteOrder.nativeOrder()).asFloatBuffer(), new long[] {batch, 2})) {
                    Map<String, OnnxTensor> inputs = Map.of("input_ids", input);
                    Map<String, OnnxTensor> outputs = Map.of("logits", logits);
                    long sink = 0;
                    long[] latencyNs = new long[passes];
                    for (int i = 0; i < warmup + passes; i++) {
                        long start = System.nanoTime();
                        try (OrtSession.Result result = pinned ? session.run(inputs, outputs) : session.run(inputs)) {
                            sink += result.size();
                        }
                        long elapsed = System.nanoTime() - start;
                        if (i >= warmup) {
                            latencyNs[i - warmup] = elapsed;
                        }
                    }
                    Arrays.sort(latencyNs);
                    System.out.printf(Locale.ROOT, "bare OrtSession.run (%s outputs): batch %d seq %d threads %d, %d passes: p50 %.4f ms, p99 %.4f ms (sink %d)%n",
                            pinned ? "pinned" : "allocated", batch, seq, threads, passes, latencyNs[(int) Math.ceil(0.5 * passes) - 1] / 1e6,
                            latencyNs[(int) Math.ceil(0.99 * passes) - 1] / 1e6, sink);
                }
            }
        }
    }
}
