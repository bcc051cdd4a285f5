package io.inferbench.model;

import java.util.SplittableRandom;

/**
 * The parts of a transformer layer's weights that the built-in encoder and decoder share, each drawn in a fixed order
 * from the model's {@link SplittableRandom} (the order is part of the model's bytes). Shapes use h = hidden,
 * f = ffnHidden; matrices are row-major {@code [in, out]}.
 */
public final class LayerWeights {
    private LayerWeights() {
    }

    /** Self-attention's query, key, value and output projections, {@code [h, h]} each, with their biases {@code [h]}. */
    public record Attention(float[] wq, float[] bq, float[] wk, float[] bk, float[] wv, float[] bv, float[] wo,
                            float[] bo) {
        static Attention draw(SplittableRandom random, int h) {
            return new Attention(EncoderWeights.gaussian(random, h * h), EncoderWeights.gaussian(random, h),
                    EncoderWeights.gaussian(random, h * h), EncoderWeights.gaussian(random, h),
                    EncoderWeights.gaussian(random, h * h), EncoderWeights.gaussian(random, h),
                    EncoderWeights.gaussian(random, h * h), EncoderWeights.gaussian(random, h));
        }
    }

    /** A LayerNorm's gain and bias, {@code [h]} each. */
    public record Norm(float[] gamma, float[] beta) {
        static Norm draw(SplittableRandom random, int h) {
            return new Norm(EncoderWeights.gain(random, h), EncoderWeights.gaussian(random, h));
        }
    }

    /** The feed-forward block: up {@code [h, f]} with its bias {@code [f]}, down {@code [f, h]} with its bias {@code [h]}. */
    public record FeedForward(float[] w1, float[] b1, float[] w2, float[] b2) {
        static FeedForward draw(SplittableRandom random, int h, int f) {
            return new FeedForward(EncoderWeights.gaussian(random, h * f), EncoderWeights.gaussian(random, f),
                    EncoderWeights.gaussian(random, f * h), EncoderWeights.gaussian(random, h));
        }
    }
}
