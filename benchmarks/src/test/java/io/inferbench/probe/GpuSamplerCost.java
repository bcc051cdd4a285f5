package io.inferbench.probe;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Measurement tool, not a test: what a running {@link GpuSampler} costs a bare {@code OrtSession.run} loop. Warms up
 * 3,000 passes, then runs {@code BLOCKS} blocks of {@code PASSES} passes, the sampler running in every odd block
 * (started before it, stopped after it); prints each block's p50 and p99 and the median over odd blocks of their p50
 * against the mean of their two neighbours. Interleaving keeps a drifting machine's speed out of the ratio.
 *
 * <pre>java -cp benchmarks/target/classes:benchmarks/target/test-classes:$(cat benchmarks/target/inferbench.classpath) \
 *   io.inferbench.probe.GpuSamplerCost MODEL NVIDIA_SMI BLOCKS PASSES</pre>
 */
public final class GpuSamplerCost {
    private GpuSamplerCost() {
    }

    public static void main(String[] args) throws Exception {
        int blocks = Integer.parseInt(args[2]);
        int passes = Integer.parseInt(args[3]);
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(Runtime.getRuntime().availableProcessors());
            options.setInterOpNumThreads(1);
            try (OrtSession session = env.createSession(args[0], options)) {
                LongBuffer ids = ByteBuffer.allocateDirect(64 * Long.BYTES).order(ByteOrder.nativeOrder()).asLongBuffer();
                for (int i = 0; i < 64; i++) {
                    ids.put(1000 + i);
                }
                ids.rewind();
                try (OnnxTensor input = OnnxTensor.createTensor(env, ids, new long[] {1, 64})) {
                    Map<String, OnnxTensor> inputs = Map.of("input_ids", input);
                    for (int i = 0; i < 3000; i++) {
                        session.run(inputs).close();
                    }
                    double[] p50 = new double[blocks];
                    for (int b = 0; b < blocks; b++) {
                        GpuSampler sampler = b % 2 == 1 ? GpuSampler.start(args[1], 0) : null;
                        long[] ns = new long[passes];
                        for (int i = 0; i < passes; i++) {
                            long start = System.nanoTime();
                            session.run(inputs).close();
                            ns[i] = System.nanoTime() - start;
                        }
                        if (sampler != null) {
                            sampler.close();
                        }
                        Arrays.sort(ns);
                        p50[b] = ns[passes / 2] / 1e6;
                        System.out.printf(Locale.ROOT, "block %d sampler %s: p50 %.4f ms, p99 %.4f ms%n", b, sampler != null, p50[b],
                                ns[(int) (passes * 0.99)] / 1e6);
                    }
                    double[] ratios = new double[blocks / 2];
                    for (int b = 1; b + 1 < blocks; b += 2) {
                        ratios[b / 2] = p50[b] / ((p50[b - 1] + p50[b + 1]) / 2);
                    }
                    Arrays.sort(ratios);
                    System.out.printf(Locale.ROOT, "p50 with the sampler / without: median %.4f over %d block pairs, range %.4f-%.4f%n",
                            ratios[ratios.length / 2], ratios.length, ratios[0], ratios[ratios.length - 1]);
                }
            }
        }
    }
}
