package io.inferbench.model;

import java.util.SplittableRandom;

/**
 * Synthetic, seeded token ids for a {@code [batch, seqLen]} input.
 *
 * <p>Ids are uniform in {@code [FIRST_ID, FIRST_ID + ID_RANGE)}: inside the vocabulary of the built-in encoder
 * (30000) and of common BERT-style exports (about 30k), so a user model accepts them. Embedding lookups cost
 * the same whatever the id, so the range does not affect timing. Every row is full length: the bucket's
 * sequence length is the padded length and {@code attention_mask} is all ones.
 */
public final class TokenInputs {
    public static final int FIRST_ID = 1000;
    public static final int ID_RANGE = 1000;

    private TokenInputs() {
    }

    public static long[] tokenIds(int batch, int seqLen, long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ (31L * batch + seqLen));
        long[] ids = new long[Math.multiplyExact(batch, seqLen)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = FIRST_ID + random.nextInt(ID_RANGE);
        }
        return ids;
    }
}
