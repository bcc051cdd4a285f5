package io.inferbench.generate;

import io.inferbench.engine.DecoderSession;
import io.inferbench.measure.NanoClock;

/**
 * One timed generation: a prefill, then {@code newTokens - 1} decode steps, each token picked ({@link Sampling}) from the
 * pass before.
 *
 * <p>What each number spans, on the {@code clock}:
 * <ul>
 *   <li>{@code encodeNs}: an encoder-decoder's encoder pass (0 for a decoder alone);</li>
 *   <li>{@code prefillNs}: the prefill pass alone (an encoder-decoder's first decoder pass; synchronized, logits in host
 *       memory);</li>
 *   <li>{@code ttftNs}, time to first token: the encoder pass (if any), the prefill pass and the pick of the first token;
 *       so never below {@code encodeNs + prefillNs};</li>
 *   <li>{@code stepNs[i]}: decode step i's pass and pick: what one more token costs on the device;</li>
 *   <li>{@code pickNs[i]}: pick i alone (0 the first token's, inside {@code ttftNs}; i ≥ 1 inside {@code stepNs[i-1]}),
 *       so a step's pass and its pick can be told apart;</li>
 *   <li>{@code handOffNs[i]}: from step i-1's tokens to step i's inputs ready: the new ids, positions and mask, the
 *       cache passed from outputs to inputs, and the release of the tensors of the step before it.</li>
 * </ul>
 * The prompt's inputs are made before the clock starts; the cache is released after it stops.
 *
 * @param tokens   the tokens generated, {@code [batch][newTokens]}
 * @param cacheBytes the bytes of the cache after the last pass: prompt + newTokens - 1 positions (an encoder-decoder's:
 *                   newTokens decoder positions, and its cross-attention caches over the source)
 * @param crossCacheBytes an encoder-decoder's cross-attention caches' bytes, within {@code cacheBytes}; 0 otherwise
 */
public record Generation(long encodeNs, long prefillNs, long ttftNs, long[] stepNs, long[] handOffNs, long[] pickNs,
                         long[][] tokens, long cacheBytes, long crossCacheBytes) {

    /** The whole generation: first token, then every hand-off and step. */
    public long totalNs() {
        long total = ttftNs;
        for (int i = 0; i < stepNs.length; i++) {
            total += stepNs[i] + handOffNs[i];
        }
        return total;
    }

    /**
     * Runs one generation: its prompt's inputs made, the timed generation ({@link #timed}), its tensors released.
     *
     * @param prompt row-major {@code [batch, promptLength]} token ids
     */
    public static Generation run(DecoderSession decoder, long[] prompt, int batch, int promptLength, int newTokens,
                                 NanoClock clock) {
        return run(decoder, prompt, batch, promptLength, newTokens, clock, Sampling.GREEDY.picker(0));
    }

    /** As above, each token picked by {@code picker}. */
    public static Generation run(DecoderSession decoder, long[] prompt, int batch, int promptLength, int newTokens,
                                 NanoClock clock, Sampling.Picker picker) {
        decoder.prepare(prompt, batch, promptLength);
        try {
            return timed(decoder, batch, newTokens, clock, picker);
        } finally {
            decoder.finish();
        }
    }

    /**
     * The timed part of one generation, on a decoder whose prompt is prepared ({@link DecoderSession#prepare}): the
     * prefill, the first pick, then each hand-off, step and pick. The clock is read once more per token than before the
     * pick was timed apart (between a step's pass and its pick): about 25 ns on the JVM's monotonic clock. Its tensors are left for the caller to release
     * ({@link DecoderSession#finish}), outside the clock.
     */
    public static Generation timed(DecoderSession decoder, int batch, int newTokens, NanoClock clock, Sampling.Picker picker) {
        if (newTokens < 1) {
            throw new IllegalArgumentException("a generation makes at least one token");
        }
        long[][] tokens = new long[batch][newTokens];
        long[] picked = new long[batch];
        long[] stepNs = new long[newTokens - 1];
        long[] handOffNs = new long[newTokens - 1];
        long[] pickNs = new long[newTokens];
        long start = clock.nanoTime();
        if (decoder.hasEncoder()) {
            decoder.encode();
        }
        long encoded = clock.nanoTime();
        decoder.prefill();
        long prefilled = clock.nanoTime();
        picker.pick(decoder.logits(), batch, decoder.vocab(), picked);
        long first = clock.nanoTime();
        pickNs[0] = first - prefilled;
        keep(tokens, picked, 0);
        for (int i = 0; i < newTokens - 1; i++) {
            long before = clock.nanoTime();
            decoder.handOff(picked);
            long ready = clock.nanoTime();
            decoder.step();
            long passed = clock.nanoTime();
            picker.pick(decoder.logits(), batch, decoder.vocab(), picked);
            long done = clock.nanoTime();
            handOffNs[i] = ready - before;
            stepNs[i] = done - ready;
            pickNs[i + 1] = done - passed;
            keep(tokens, picked, i + 1);
        }
        return new Generation(decoder.hasEncoder() ? encoded - start : 0, prefilled - encoded, first - start, stepNs, handOffNs,
                pickNs, tokens, decoder.cacheBytes(), decoder.crossCacheBytes());
    }

    private static void keep(long[][] tokens, long[] picked, int index) {
        for (int b = 0; b < picked.length; b++) {
            tokens[b][index] = picked[b];
        }
    }
}
