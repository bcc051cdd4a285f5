package io.inferbench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic, seeded weights for a built-in decoder, drawn as {@link EncoderWeights} draws the encoder's (Gaussian,
 * standard deviation 0.02; LayerNorm gains 1 ± 0.02), in a fixed order from {@link SplittableRandom}, so the same preset
 * and seed give the same bytes on every JVM and both engines run the same numbers. Matrices are row-major
 * {@code [in, out]}: a product is {@code x · W + b}.
 */
public record DecoderWeights(DecoderConfig config, float[] tokenEmbedding, float[] positionEmbedding, List<Layer> layers,
                             float[] finalGamma, float[] finalBeta, float[] head) {

    /** One pre-LayerNorm decoder layer's parameters, in the order they are drawn. */
    public record Layer(LayerWeights.Norm ln1, LayerWeights.Attention attention, LayerWeights.Norm ln2,
                        LayerWeights.FeedForward ffn) {
    }

    public static DecoderWeights generate(DecoderConfig config, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int h = config.hidden();
        int f = config.ffnHidden();
        float[] tokens = gaussian(random, config.vocabSize() * h);
        float[] positions = gaussian(random, config.maxPositions() * h);
        List<Layer> layers = new ArrayList<>(config.layers());
        for (int i = 0; i < config.layers(); i++) {
            layers.add(new Layer(LayerWeights.Norm.draw(random, h), LayerWeights.Attention.draw(random, h),
                    LayerWeights.Norm.draw(random, h), LayerWeights.FeedForward.draw(random, h, f)));
        }
        float[] finalGamma = gain(random, h);
        float[] finalBeta = gaussian(random, h);
        float[] head = gaussian(random, h * config.vocabSize());
        return new DecoderWeights(config, tokens, positions, List.copyOf(layers), finalGamma, finalBeta, head);
    }

    private static float[] gaussian(SplittableRandom random, int n) {
        return EncoderWeights.gaussian(random, n);
    }

    private static float[] gain(SplittableRandom random, int n) {
        return EncoderWeights.gain(random, n);
    }
}
