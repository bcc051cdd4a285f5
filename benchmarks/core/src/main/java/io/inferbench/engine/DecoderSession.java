package io.inferbench.engine;

import io.inferbench.inputs.DecoderLayout;

/**
 * A decoder opened for generation: one generation at a time, driven step by step by the caller, who times each call.
 * The calls of one generation, in order: {@link #prepare} (outside any timed region), {@link #prefill} and the first token
 * picked from {@link #logits}, then for each further token {@link #handOff}, {@link #step} and its pick; then
 * {@link #finish}. The pick is the caller's (greedy by {@link #greedy}, or sampled), the same code on every engine.
 *
 * <p><b>Synchronized.</b> {@link #prefill} and {@link #step} return once the device has finished the pass and the logits
 * are in host memory, so a clock stopped after them has nothing left running.
 *
 * <p>Native resources: {@link #close()} releases them and may be called more than once.
 */
public interface DecoderSession extends AutoCloseable {
    /** How the model's inputs and outputs are fed and read. */
    DecoderLayout layout();

    /** The execution provider or device that runs the passes, as recorded. */
    String provider();

    /** How the decoder runs, as a generation cell records it; {@code engineVersion} is the engine's. */
    SessionFacts facts(String engineVersion);

    /**
     * Makes the prefill's inputs: the prompt's ids, row-major {@code [batch, promptLength]}, positions 0 … promptLength-1,
     * a mask of ones where the model has one, and an empty cache. Not timed.
     */
    void prepare(long[] promptIds, int batch, int promptLength);

    /** Whether an encoder runs first ({@link #encode}): an encoder-decoder, whose prompt is the encoder's source. */
    default boolean hasEncoder() {
        return false;
    }

    /**
     * An encoder-decoder's encoder pass over the prepared source, before {@link #prefill} (the first decoder pass, from
     * the decoder's start token); nothing for a decoder alone.
     */
    default void encode() {
    }

    /** The pass over the prompt with the empty cache (an encoder-decoder's first decoder pass). */
    void prefill();

    /**
     * The last pass's logits in host memory, row-major by sequence: each row's last {@link #vocab} values are its last
     * position's. The session's own array, overwritten by the next pass.
     */
    float[] logits();

    /** The logits per position of the last pass: the vocabulary. */
    int vocab();

    /**
     * The next step's inputs: {@code tokens} as its ids, their positions, the mask one longer, and the last pass's cache
     * outputs as its cache inputs. On an engine without device-side binding the cache stays in host memory between steps.
     */
    void handOff(long[] tokens);

    /** One decode pass over the handed-off inputs. */
    void step();

    /**
     * The bytes of the cache the generation holds after the last pass: every self-attention key and value tensor the last
     * pass wrote (its present outputs), and an encoder-decoder's cross-attention caches ({@link #crossCacheBytes}).
     */
    long cacheBytes();

    /** The bytes of an encoder-decoder's cross-attention caches (from the first decoder pass, fixed after); 0 otherwise. */
    default long crossCacheBytes() {
        return 0;
    }

    /**
     * Ends the op profile of a decoder opened with one ({@link InferenceEngine#openProfiledDecoder}) and returns its files,
     * one per session, in the engine's own profile format ({@link InferenceEngine#readProfile}): the prefill's session first where the prefill and the steps are two
     * (a split export); each holds one {@code model_run} per pass, in order. Empty for a decoder opened without one.
     */
    default java.util.List<java.nio.file.Path> endProfiling() {
        return java.util.List.of();
    }

    /**
     * A batch whose rows join and leave between steps ({@link RowBatch}), on this decoder's sessions: what continuous
     * batching needs. Null where the engine cannot build one; {@link #rowsRefusal} says why. The decoder's own
     * generation is finished first; the caller closes the batch.
     */
    default RowBatch rows() {
        return null;
    }

    /** Why {@link #rows} is null on this decoder; null when it is not. */
    default String rowsRefusal() {
        return "this engine's decoder has no batch whose rows join and leave between steps";
    }

    /** Releases the generation's tensors. */
    void finish();

    @Override
    void close();

    /**
     * The greedy token of each of {@code batch} rows of {@code rowLength} logits, the row's last {@code vocab} values being
     * the last position's: the index of the largest (the first of equals).
     */
    static void greedy(float[] logits, int batch, int vocab, long[] tokens) {
        int rowLength = logits.length / batch;
        for (int b = 0; b < batch; b++) {
            int start = b * rowLength + rowLength - vocab;
            int best = start;
            for (int i = start + 1; i < start + vocab; i++) {
                if (logits[i] > logits[best]) {
                    best = i;
                }
            }
            tokens[b] = best - start;
        }
    }

    /** Positions {@code 0 … length-1} in each of {@code batch} rows, row-major. */
    static long[] promptPositions(int batch, int length) {
        long[] positions = new long[batch * length];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = i % length;
        }
        return positions;
    }
}
