package io.inferbench.inputs;

import java.util.List;

/**
 * What generation feeds a decoder and reads back, planned from the model's inputs and outputs by {@link DecoderPlanner}.
 *
 * @param inputIds      the token ids input, int64 or int32 {@code [batch, seq]}
 * @param idsType       its element type
 * @param positionIds   {@code position_ids}, filled with each token's position; null when the model has none
 * @param attentionMask {@code attention_mask} over past and new positions, all ones (no padding); null when none
 * @param logits        the output the next token is picked from: {@code [batch, vocab]} (the last position's), or
 *                      {@code [batch, seq, vocab]}, of which the last position is read
 * @param cache         every cache input with its output, in the model's input order; empty for the prefill graph of a
 *                      split export, which takes no cache
 * @param branchFlag    a merged export's bool flag ({@code use_cache_branch}): false on the prefill (with zero-length
 *                      caches), true on every step; null when the model has none
 */
public record DecoderLayout(String inputIds, ElementType idsType, String positionIds, String attentionMask, String logits,
                            List<CacheInput> cache, String branchFlag) {
    public DecoderLayout {
        cache = List.copyOf(cache);
    }

    /** Without a branch flag. */
    public DecoderLayout(String inputIds, ElementType idsType, String positionIds, String attentionMask, String logits,
                         List<CacheInput> cache) {
        this(inputIds, idsType, positionIds, attentionMask, logits, cache, null);
    }

    /** The bytes of every cache tensor at {@code batch} and {@code positions}. */
    public long cacheBytes(int batch, long positions) {
        return cache.stream().mapToLong(c -> c.bytes(batch, positions)).sum();
    }

    /** The pairs, as {@code -Dbench.kvPairs} would spell them. */
    public List<KvPair> pairs() {
        return cache.stream().map(c -> new KvPair(c.past(), c.present())).toList();
    }

    /** One line for the console and the report. */
    public String describe() {
        CacheInput first = cache.get(0);
        return inputIds + (positionIds == null ? "" : ", " + positionIds) + (attentionMask == null ? "" : ", " + attentionMask)
                + "; " + cache.size() + " cache tensors " + first.describe() + " " + first.type().label() + " ("
                + first.past() + " -> " + first.present() + ", ...); next token from " + logits
                + (branchFlag == null ? "" : "; " + branchFlag + " false on the prefill (zero-length caches), true on each step");
    }
}
