import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;

import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The reference for inferbench's generation numbers: a plain ONNX Runtime Java greedy loop, no harness. It loads a decoder
 * with Hugging Face's names (input_ids, position_ids, attention_mask where the model has one, past_key_values.N.key/value
 * in; logits, present.N.key/value out),
 * and for each batch runs warm-up generations, then measured ones: a prefill over a prompt of seeded ids, then steps,
 * each a session.run and an argmax over the last position's logits. It prints, per batch, the p50 of the step (run and
 * argmax, what inferbench's "step" spans) and the p50 and p99 of the time to first token (prefill and argmax).
 *
 * <p>Usage: {@code BareLoop MODEL.onnx PROMPT NEW_TOKENS BATCHES THREADS [WARMUP MEASURED]}, e.g.
 * {@code BareLoop decoder.onnx 64 16 1,4,8 2 20 30}.
 */
public final class BareLoop {
    public static void main(String[] args) throws OrtException {
        String model = args[0];
        int prompt = Integer.parseInt(args[1]);
        int newTokens = Integer.parseInt(args[2]);
        int[] batches = Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray();
        int threads = Integer.parseInt(args[4]);
        int warmup = args.length > 5 ? Integer.parseInt(args[5]) : 20;
        int measured = args.length > 6 ? Integer.parseInt(args[6]) : 30;
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(threads);
            options.setInterOpNumThreads(1);
            try (OrtSession session = env.createSession(model, options)) {
                int layers = (int) session.getInputNames().stream().filter(n -> n.startsWith("past_key_values.")).count() / 2;
                long[] cacheShape = ((ai.onnxruntime.TensorInfo) session.getInputInfo().get("past_key_values.0.key").getInfo()).getShape();
                for (int batch : batches) {
                    List<Double> steps = new ArrayList<>();
                    List<Double> ttft = new ArrayList<>();
                    for (int g = 0; g < warmup + measured; g++) {
                        generate(env, session, layers, cacheShape, batch, prompt, newTokens, g < warmup ? null : steps,
                                g < warmup ? null : ttft);
                    }
                    System.out.printf("bare loop: batch %d, prompt %d, %d new tokens, %d threads: step p50 %.3f ms, TTFT p50 %.3f ms,"
                            + " TTFT p99 %.3f ms (%d generations measured after %d warm-up)%n", batch, prompt, newTokens, threads,
                            percentile(steps, 0.50), percentile(ttft, 0.50), percentile(ttft, 0.99), measured, warmup);
                }
            }
        }
    }

    private static void generate(OrtEnvironment env, OrtSession session, int layers, long[] cacheShape, int batch, int prompt,
                                 int newTokens, List<Double> steps, List<Double> ttft) throws OrtException {
        SplittableRandom random = new SplittableRandom(42);
        long[] ids = new long[batch * prompt];
        long[] positions = new long[batch * prompt];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = random.nextInt(1000);
            positions[i] = i % prompt;
        }
        Map<String, OnnxTensor> inputs = new HashMap<>();
        List<OnnxTensor> made = new ArrayList<>();
        inputs.put("input_ids", made(made, OnnxTensor.createTensor(env, LongBuffer.wrap(ids), new long[] {batch, prompt})));
        inputs.put("position_ids", made(made, OnnxTensor.createTensor(env, LongBuffer.wrap(positions), new long[] {batch, prompt})));
        boolean masked = session.getInputNames().contains("attention_mask");
        if (masked) {
            inputs.put("attention_mask", made(made, ones(env, batch, prompt)));
        }
        long[] empty = {batch, cacheShape[1], 0, cacheShape[3]};
        for (int l = 0; l < layers; l++) {
            inputs.put("past_key_values." + l + ".key", made(made, OnnxTensor.createTensor(env, FloatBuffer.allocate(0), empty)));
            inputs.put("past_key_values." + l + ".value", made(made, OnnxTensor.createTensor(env, FloatBuffer.allocate(0), empty)));
        }
        long[] next = new long[batch];
        long start = System.nanoTime();
        OrtSession.Result result = session.run(inputs);
        argmax(result, batch, next);
        long first = System.nanoTime();
        if (ttft != null) {
            ttft.add((first - start) / 1e6);
        }
        made.forEach(OnnxTensor::close);
        made.clear();
        for (int step = 1; step < newTokens; step++) {
            inputs.clear();
            long[] stepPositions = new long[batch];
            Arrays.fill(stepPositions, prompt + step - 1);
            inputs.put("input_ids", made(made, OnnxTensor.createTensor(env, LongBuffer.wrap(next.clone()), new long[] {batch, 1})));
            inputs.put("position_ids", made(made, OnnxTensor.createTensor(env, LongBuffer.wrap(stepPositions), new long[] {batch, 1})));
            if (masked) {
                inputs.put("attention_mask", made(made, ones(env, batch, prompt + step)));
            }
            for (int l = 0; l < layers; l++) {
                inputs.put("past_key_values." + l + ".key", (OnnxTensor) result.get("present." + l + ".key").orElseThrow());
                inputs.put("past_key_values." + l + ".value", (OnnxTensor) result.get("present." + l + ".value").orElseThrow());
            }
            long before = System.nanoTime();
            OrtSession.Result nextResult = session.run(inputs);
            argmax(nextResult, batch, next);
            long after = System.nanoTime();
            if (steps != null) {
                steps.add((after - before) / 1e6);
            }
            result.close();
            result = nextResult;
            made.forEach(OnnxTensor::close);
            made.clear();
        }
        result.close();
    }

    private static OnnxTensor made(List<OnnxTensor> made, OnnxTensor tensor) {
        made.add(tensor);
        return tensor;
    }

    /** The largest logit of each row's last position, into {@code next}. */
    private static void argmax(OrtSession.Result result, int batch, long[] next) throws OrtException {
        OnnxTensor logits = (OnnxTensor) result.get("logits").orElseThrow();
        FloatBuffer values = logits.getFloatBuffer();
        int row = values.remaining() / batch;
        long[] shape = logits.getInfo().getShape();
        int vocab = (int) shape[shape.length - 1];
        for (int b = 0; b < batch; b++) {
            int startAt = b * row + row - vocab;
            int best = startAt;
            for (int i = startAt + 1; i < startAt + vocab; i++) {
                if (values.get(i) > values.get(best)) {
                    best = i;
                }
            }
            next[b] = best - startAt;
        }
    }

    /** The value at quantile {@code q} of {@code values}, nearest rank. */
    private static double percentile(List<Double> values, double q) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    /** A mask of ones, {@code [batch, positions]}: every position attended, nothing padded. */
    private static OnnxTensor ones(OrtEnvironment env, int batch, int positions) throws OrtException {
        long[] ones = new long[batch * positions];
        Arrays.fill(ones, 1);
        return OnnxTensor.createTensor(env, LongBuffer.wrap(ones), new long[] {batch, positions});
    }
}
