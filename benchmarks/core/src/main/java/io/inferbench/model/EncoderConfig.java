package io.inferbench.model;

/**
 * Shape of the built-in encoder classifier: token embedding, {@code layers} post-LayerNorm Transformer
 * encoder layers, mean pooling over the sequence, and a linear head.
 *
 * <p>There are no position embeddings: the mock workload only needs the compute of a BERT-style encoder,
 * and leaving them out means any sequence length is valid.
 */
public record EncoderConfig(int vocabSize, int hidden, int layers, int heads, int ffnHidden, int numLabels) {
    public EncoderConfig {
        if (vocabSize <= 0 || hidden <= 0 || layers <= 0 || heads <= 0 || ffnHidden <= 0 || numLabels <= 0) {
            throw new IllegalArgumentException("every encoder dimension must be positive: " + this);
        }
        if (hidden % heads != 0) {
            throw new IllegalArgumentException("hidden (" + hidden + ") must be divisible by heads (" + heads + ")");
        }
    }

    public int headDim() {
        return hidden / heads;
    }

    /** LayerNorm epsilon, as in BERT. */
    public float layerNormEpsilon() {
        return 1e-5f;
    }
}
