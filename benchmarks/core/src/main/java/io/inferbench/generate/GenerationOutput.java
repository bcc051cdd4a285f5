package io.inferbench.generate;

/**
 * What a generation cell keeps of each fork beside its numbers ({@link GenerationUnit#output}), in the fork's
 * measurement and the cell's {@code phases.outputs}.
 *
 * @param tokens     the tokens the fork's last generation made, {@code [batch][newTokens]}: greedy, so every generation of
 *                   the cell makes the same; the token agreement's candidate
 * @param cacheBytes the key/value cache after the last step (an encoder-decoder's cross-attention caches included)
 * @param crossCacheBytes an encoder-decoder's cross-attention caches; 0 for a decoder alone
 */
public record GenerationOutput(long[][] tokens, long cacheBytes, long crossCacheBytes) {
}
