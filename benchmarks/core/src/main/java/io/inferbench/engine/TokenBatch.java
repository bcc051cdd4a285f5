package io.inferbench.engine;

import io.inferbench.BenchmarkException;

/**
 * One input batch as the harness feeds it: {@code batch} rows of {@code seqLen} token ids, row-major, and which of
 * them are real tokens. A model that runs batch only (no swept axis) takes batches of {@code seqLen} 0 and no ids; its
 * inputs are all generated ({@link io.inferbench.inputs.InputFill}).
 *
 * @param attentionMask 1 for a real token, 0 for padding, row-major like the ids; null means every row is full length
 *                      (all ones). A model without an {@code attention_mask} input computes over the padding anyway:
 *                      that is the cost padding has.
 * @param texts         the batch's texts, one per row, when a text workload gives them to a session that reads text
 *                      itself ({@link InferenceSession#takesText}); empty otherwise
 */
public record TokenBatch(int batch, int seqLen, long[] tokenIds, long[] attentionMask, java.util.List<String> texts) {
    public TokenBatch {
        texts = texts == null ? java.util.List.of() : java.util.List.copyOf(texts);
        if (batch <= 0 || seqLen < 0) {
            throw new BenchmarkException("batch must be positive and seqLen not negative, got batch " + batch + ", seqLen "
                    + seqLen);
        }
        if (tokenIds.length != (long) batch * seqLen) {
            throw new IllegalArgumentException(tokenIds.length + " token ids for batch " + batch + " x seqLen " + seqLen);
        }
        if (attentionMask != null && attentionMask.length != tokenIds.length) {
            throw new IllegalArgumentException(attentionMask.length + " mask values for " + tokenIds.length + " token ids");
        }
    }

    /** Without texts. */
    public TokenBatch(int batch, int seqLen, long[] tokenIds, long[] attentionMask) {
        this(batch, seqLen, tokenIds, attentionMask, null);
    }

    /** Every row full length: the synthetic sweep's inputs. */
    public static TokenBatch full(int batch, int seqLen, long[] tokenIds) {
        return new TokenBatch(batch, seqLen, tokenIds, null);
    }

    /** This batch with the rows' texts. */
    public TokenBatch withTexts(java.util.List<String> rowTexts) {
        return new TokenBatch(batch, seqLen, tokenIds, attentionMask, rowTexts);
    }
}
