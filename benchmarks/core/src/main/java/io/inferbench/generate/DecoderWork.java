package io.inferbench.generate;

import io.inferbench.model.DecoderConfig;

/**
 * The work of a built-in decoder's passes, counted from its shape (float32, 4 bytes an element), for the roofline.
 *
 * <p><b>FLOPs</b>: two per multiply-add of every matrix product: the layers' four attention and two feed-forward products
 * for each token, the scores ({@code q·Kᵀ}) and the weighted values ({@code p·V}) against every key the graph computes
 * (the prefill computes the whole prompt x prompt square, masked), and the head for the last position of each sequence.
 *
 * <p><b>Bytes</b>: what the pass must move at least: every weight read once (the layers' and the head's; the embedding
 * rows gathered are negligible) and the key/value cache read by attention once. Activations are left out, so the byte
 * share is a lower bound on the traffic; a step of a few tokens holds them in cache anyway.
 */
record DecoderWork(double flops, double bytes) {
    private static final int BYTES = Float.BYTES;

    /** The prefill of {@code batch} prompts of {@code prompt} tokens. */
    static DecoderWork prefill(DecoderConfig c, int batch, int prompt) {
        double perToken = 2.0 * c.layers() * (4.0 * c.hidden() * c.hidden() + 2.0 * c.hidden() * c.ffnHidden());
        double attention = 2.0 * c.layers() * 2.0 * prompt * (double) prompt * c.hidden();
        double head = 2.0 * c.hidden() * c.vocabSize();
        double flops = batch * (prompt * perToken + attention + head);
        return new DecoderWork(flops, weightBytes(c) + cacheBytes(c, batch, prompt));
    }

    /** A decode step of one token per sequence, attending to {@code positions} keys (the cache with this token's). */
    static DecoderWork step(DecoderConfig c, int batch, long positions) {
        double perToken = 2.0 * c.layers() * (4.0 * c.hidden() * c.hidden() + 2.0 * c.hidden() * c.ffnHidden());
        double attention = 2.0 * c.layers() * 2.0 * positions * c.hidden();
        double head = 2.0 * c.hidden() * c.vocabSize();
        return new DecoderWork(batch * (perToken + attention + head), weightBytes(c) + cacheBytes(c, batch, positions));
    }

    static double weightBytes(DecoderConfig c) {
        double layer = 4.0 * c.hidden() * c.hidden() + 2.0 * c.hidden() * c.ffnHidden() + 9.0 * c.hidden() + c.ffnHidden();
        return BYTES * (c.layers() * layer + (double) c.hidden() * c.vocabSize() + 2.0 * c.hidden());
    }

    /** Keys and values of every layer: 2 x layers x batch x heads x positions x headDim x 4 bytes. */
    static double cacheBytes(DecoderConfig c, int batch, long positions) {
        return 2.0 * c.layers() * batch * c.heads() * positions * c.headDim() * BYTES;
    }
}
