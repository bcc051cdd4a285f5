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
 * @param encoderStates an encoder-decoder's {@code encoder_hidden_states} input, fed the encoder's output; null when
 *                      the graph has none
 * @param encoderMask   an encoder-decoder's {@code encoder_attention_mask} input, ones over the source; null when none
 */
public record DecoderLayout(String inputIds, ElementType idsType, String positionIds, String attentionMask, String logits,
                            List<CacheInput> cache, String branchFlag, String encoderStates, String encoderMask) {
    /** The encoder-decoder's inputs, as the planner names them. */
    public static final String ENCODER_STATES = "encoder_hidden_states";
    public static final String ENCODER_MASK = "encoder_attention_mask";

    public DecoderLayout {
        cache = List.copyOf(cache);
    }

    /** A decoder alone. */
    public DecoderLayout(String inputIds, ElementType idsType, String positionIds, String attentionMask, String logits,
                         List<CacheInput> cache, String branchFlag) {
        this(inputIds, idsType, positionIds, attentionMask, logits, cache, branchFlag, null, null);
    }

    /** Without a branch flag. */
    public DecoderLayout(String inputIds, ElementType idsType, String positionIds, String attentionMask, String logits,
                         List<CacheInput> cache) {
        this(inputIds, idsType, positionIds, attentionMask, logits, cache, null);
    }

    /** The bytes of the cross-attention caches at {@code batch} and {@code sourcePositions}. */
    public long crossCacheBytes(int batch, long sourcePositions) {
        return cache.stream().filter(CacheInput::cross).mapToLong(c -> c.bytes(batch, sourcePositions)).sum();
    }

    /** The bytes of every self-attention cache tensor at {@code batch} and {@code positions}. */
    public long cacheBytes(int batch, long positions) {
        return cache.stream().filter(c -> !c.cross()).mapToLong(c -> c.bytes(batch, positions)).sum();
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
                + (branchFlag == null ? "" : "; " + branchFlag + " false on the prefill (zero-length caches), true on each step")
                + (cache.stream().anyMatch(CacheInput::cross) ? "; " + cache.stream().filter(CacheInput::cross).count()
                + " of the cache tensors are cross-attention caches, from the first decoder pass, fed unchanged to every step" : "");
    }
}
