package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How each next token is picked from a pass's logits ({@code -Dbench.sampling}): greedy (the largest logit), or sampled
 * from the softmax of the logits over {@code temperature}, kept to the {@code topK} largest and to the smallest set whose
 * probability reaches {@code topP} (nucleus), as Hugging Face's {@code generate} filters them. A sampled pick draws from
 * a random seeded per generation, so every generation of a cell makes the same tokens and a run repeats.
 *
 * <p><b>Its cost is the pick's.</b> Sampling sorts each row's logits (the vocabulary), where greedy scans it once: at a
 * 32,000-token vocabulary and batch 8 the difference is what a user's service pays per token, and it is timed as the
 * {@code pick} phase, inside the step as the step's pick.
 *
 * @param temperature the logits' divisor; null for greedy
 * @param topK        the largest logits kept; 0 for all
 * @param topP        the nucleus's probability; 1 for all
 */
public record Sampling(Double temperature, int topK, double topP) {
    public static final Sampling GREEDY = new Sampling(null, 0, 1);

    public boolean greedy() {
        return temperature == null;
    }

    /**
     * Parses {@code greedy} or {@code temperature=T,topK=K,topP=P} (any of the three; temperature 1 when only the filters
     * are given), refusing a value out of range with the range.
     */
    public static Sampling parse(String value) {
        String trimmed = value == null ? "" : value.trim();
        if (trimmed.isEmpty() || trimmed.equals("greedy")) {
            return GREEDY;
        }
        double temperature = 1;
        int topK = 0;
        double topP = 1;
        for (String part : trimmed.split(",")) {
            String[] kv = part.trim().split("=", 2);
            String key = kv[0].trim();
            if (kv.length != 2 || kv[1].isBlank()) {
                throw refusal("'" + part.trim() + "' is not KEY=VALUE");
            }
            String v = kv[1].trim();
            try {
                switch (key) {
                    case "temperature" -> temperature = Double.parseDouble(v);
                    case "topK" -> topK = Integer.parseInt(v);
                    case "topP" -> topP = Double.parseDouble(v);
                    default -> throw refusal("'" + key + "' is not a sampling setting");
                }
            } catch (NumberFormatException e) {
                throw refusal(key + "=" + v + " is not a number");
            }
        }
        if (!(temperature > 0) || Double.isInfinite(temperature)) {
            throw refusal("temperature=" + temperature + " is out of range: it must be above 0 (for the largest logit, "
                    + "-Dbench.sampling=greedy)");
        }
        if (topK < 0) {
            throw refusal("topK=" + topK + " is out of range: it must be 1 or more (0 keeps every token)");
        }
        if (!(topP > 0 && topP <= 1)) {
            throw refusal("topP=" + topP + " is out of range: it must be in (0, 1]");
        }
        return new Sampling(temperature, topK, topP);
    }

    private static BenchmarkException refusal(String why) {
        return new BenchmarkException("-Dbench.sampling: " + why + ". Give greedy, or temperature=T,topK=K,topP=P (any of "
                + "them), e.g. -Dbench.sampling=temperature=0.8,topK=50,topP=0.95");
    }

    /** As the setting spells it. */
    public String describe() {
        if (greedy()) {
            return "greedy";
        }
        List<String> parts = new ArrayList<>(List.of("temperature=" + temperature));
        if (topK > 0) {
            parts.add("topK=" + topK);
        }
        if (topP < 1) {
            parts.add("topP=" + topP);
        }
        return String.join(",", parts);
    }

    /** A picker whose random is seeded from {@code seed} at each {@link Picker#reset}. */
    public Picker picker(long seed) {
        return new Picker(this, seed);
    }

    /**
     * Picks the tokens of a batch; its buffers are kept between picks, so a pick allocates nothing.
     *
     * <p>What a pick costs: greedy scans the row once. With {@code topK}, a heap of K keeps the K largest in one scan
     * (V log K comparisons at worst, most rejected at the root) and only they are sorted and exponentiated. With
     * {@code topP} alone the row is sorted whole (V log V), as transformers sorts it; with neither, every logit is
     * exponentiated once.
     */
    public static final class Picker {
        private final Sampling sampling;
        private final long seed;
        private SplittableRandom random;
        private long[] keys = new long[0];
        private double[] weights = new double[0];

        Picker(Sampling sampling, long seed) {
            this.sampling = sampling;
            this.seed = seed;
            reset();
        }

        public boolean greedy() {
            return sampling.greedy();
        }

        /** Starts the random over: each generation draws the same sequence. */
        public void reset() {
            random = new SplittableRandom(seed);
        }

        /**
         * The next token of each of {@code batch} rows of {@code logits}, each row's last {@code vocab} values being the
         * last position's, into {@code tokens}.
         */
        public void pick(float[] logits, int batch, int vocab, long[] tokens) {
            if (sampling.greedy()) {
                DecoderSession.greedy(logits, batch, vocab, tokens);
                return;
            }
            if (sampling.topK > vocab) {
                throw new BenchmarkException("-Dbench.sampling: topK=" + sampling.topK + " is more than the model's vocabulary ("
                        + vocab + " logits per position); give at most " + vocab);
            }
            if (keys.length < vocab) {
                keys = new long[vocab];
                weights = new double[vocab];
            }
            int rowLength = logits.length / batch;
            for (int b = 0; b < batch; b++) {
                tokens[b] = sample(logits, b * rowLength + rowLength - vocab, vocab);
            }
        }

        /** One row: the kept tokens (top-k, then the nucleus), then a draw from their softmax over the temperature. */
        private int sample(float[] logits, int start, int vocab) {
            int kept;
            boolean sorted;
            if (sampling.topK > 0) {
                kept = largest(logits, start, vocab, sampling.topK);
                Arrays.sort(keys, 0, kept);
                sorted = true;
            } else {
                for (int i = 0; i < vocab; i++) {
                    keys[i] = key(logits[start + i], i);
                }
                kept = vocab;
                sorted = sampling.topP < 1;
                if (sorted) {
                    Arrays.sort(keys, 0, kept);
                }
            }
            // keys[0, kept): ascending by logit when sorted, so the largest is keys[kept - 1]
            float max = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < kept; i++) {
                max = Math.max(max, logits[start + index(keys[i])]);
            }
            double t = sampling.temperature;
            double total = 0;
            for (int i = kept - 1; i >= 0; i--) {
                weights[i] = Math.exp((logits[start + index(keys[i])] - max) / t);
                total += weights[i];
            }
            int from = 0;
            if (sampling.topP < 1) {
                double nucleus = 0;
                for (int i = kept - 1; i >= 0; i--) {
                    nucleus += weights[i];
                    if (nucleus >= sampling.topP * total) {
                        from = i;
                        total = nucleus;
                        break;
                    }
                }
            }
            double target = random.nextDouble() * total;
            for (int i = kept - 1; i >= from; i--) {
                target -= weights[i];
                if (target < 0) {
                    return index(keys[i]);
                }
            }
            return index(keys[from]);
        }

        /** The {@code k} largest of the row as keys, in {@code keys[0, k)} (a min-heap of k, in one scan); returns k. */
        private int largest(float[] logits, int start, int vocab, int k) {
            for (int i = 0; i < k; i++) {
                keys[i] = key(logits[start + i], i);
                siftUp(i);
            }
            for (int i = k; i < vocab; i++) {
                long candidate = key(logits[start + i], i);
                if (candidate > keys[0]) {
                    keys[0] = candidate;
                    siftDown(0, k);
                }
            }
            return k;
        }

        private void siftUp(int i) {
            while (i > 0) {
                int parent = (i - 1) / 2;
                if (keys[parent] <= keys[i]) {
                    return;
                }
                swap(parent, i);
                i = parent;
            }
        }

        private void siftDown(int i, int size) {
            while (true) {
                int smallest = i;
                int left = 2 * i + 1;
                int right = left + 1;
                if (left < size && keys[left] < keys[smallest]) {
                    smallest = left;
                }
                if (right < size && keys[right] < keys[smallest]) {
                    smallest = right;
                }
                if (smallest == i) {
                    return;
                }
                swap(i, smallest);
                i = smallest;
            }
        }

        private void swap(int a, int b) {
            long k = keys[a];
            keys[a] = keys[b];
            keys[b] = k;
        }

        /**
         * A logit and its index as one long that orders as the logit (its float bits made to order as ints, above), then
         * as the smaller index first among equals (below, inverted): sorting keys sorts the row without boxing.
         */
        static long key(float logit, int index) {
            int bits = Float.floatToIntBits(logit);
            bits ^= (bits >> 31) & 0x7fffffff;
            return ((long) bits << 32) | (~index & 0xffffffffL);
        }

        static int index(long key) {
            return ~(int) key;
        }
    }
}
