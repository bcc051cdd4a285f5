package io.inferbench.model;

/**
 * Shape of a built-in decoder: GPT-2 style, pre-LayerNorm, learned position embeddings, causal self-attention whose keys
 * and values are kept in a cache of {@code [batch, heads, positions, headDim]} per layer, a final LayerNorm and an
 * untied language-model head of {@code [hidden, vocabSize]}.
 *
 * @param maxPositions the longest prompt plus generated tokens the position table covers
 */
public record DecoderConfig(int vocabSize, int hidden, int layers, int heads, int ffnHidden, int maxPositions) {
    public DecoderConfig {
        if (vocabSize <= 0 || hidden <= 0 || layers <= 0 || heads <= 0 || ffnHidden <= 0 || maxPositions <= 0) {
            throw new IllegalArgumentException("every decoder dimension must be positive: " + this);
        }
        if (hidden % heads != 0) {
            throw new IllegalArgumentException("hidden (" + hidden + ") must be divisible by heads (" + heads + ")");
        }
    }

    public int headDim() {
        return hidden / heads;
    }

    /** LayerNorm epsilon, as in GPT-2. */
    public float layerNormEpsilon() {
        return 1e-5f;
    }

    /** Parameters of the matrix products every token passes through (the layers' and the head's), without biases. */
    public long matmulParameters() {
        return (long) layers * (4L * hidden * hidden + 2L * hidden * ffnHidden) + (long) hidden * vocabSize;
    }
}
