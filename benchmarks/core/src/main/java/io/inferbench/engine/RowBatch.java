package io.inferbench.engine;

import java.util.List;

/**
 * A decoder's running batch whose rows join and leave between decode steps, as an iteration-level (continuous) batcher
 * drives it: each request is one row, prefilled when it is admitted, stepped with the others, and gone when it is done.
 * Obtained from {@link DecoderSession#rows()}; it borrows the decoder's sessions, so the decoder runs no generation of
 * its own while it is in use.
 *
 * <p><b>Padding.</b> The rows' caches are held left-padded to the longest along positions: row r with {@code length(r)}
 * positions holds them at the right end, its {@code attention_mask} is 0 over the padding and 1 after, and its
 * {@code position_ids} are its own (0 at its first token). A row therefore attends to exactly its own tokens, as if it ran
 * alone. A model without an {@code attention_mask} cannot be padded: its rows must all have the same length, and a
 * call that would pad throws.
 *
 * <p><b>Synchronized.</b> {@link #prefill} and {@link #step} return once the pass is done and its logits are in host
 * memory. {@link #join} and {@link #leave} copy the caches into a new padded layout (host memory on an engine
 * without device-side binding); they are part of the scheduler's time, and a caller times them with the pass they precede.
 *
 * <p>Native resources: {@link #close()} releases the batch's tensors and may be called more than once.
 */
public interface RowBatch extends AutoCloseable {
    /**
     * Prefills {@code prompts} together, one row each, left-padded to the longest: they are pending, not yet in the
     * running batch, until {@link #join}. Afterwards {@link #logits} holds one row per prompt, in order.
     */
    void prefill(List<long[]> prompts);

    /** The pending prefilled rows join the running batch after its rows. */
    void join();

    /** The running rows at these indices (ascending) leave; the others keep their order. */
    void leave(int[] rows);

    /** One decode pass over every running row, row r fed {@code tokens[r]}. */
    void step(long[] tokens);

    /** The last pass's logits: one row per prefilled prompt or running row; each row's last {@link #vocab} values. */
    float[] logits();

    /** The logits per position of the last pass: the vocabulary. */
    int vocab();

    /**
     * Whether rows of different lengths can share the batch: the model takes an {@code attention_mask}. Without one,
     * every row must have the same length, which static batching of equal prompts keeps and continuous batching cannot.
     */
    boolean pads();

    /** Rows in the running batch. */
    int rows();

    /**
     * The bytes of the running batch's self-attention caches as they are held, padding included: what a step reads and
     * the memory the batch occupies.
     */
    long cacheBytes();

    /** The bytes the running rows' own positions take, without the padding. */
    long usedCacheBytes();

    /** Empties the batch (running and pending), releasing its tensors. */
    void clear();

    @Override
    void close();
}
