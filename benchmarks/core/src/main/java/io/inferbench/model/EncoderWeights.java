package io.inferbench.model;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic, seeded weights for the built-in encoder.
 *
 * <p>Matrices are row-major {@code [in, out]}, so that a forward pass is {@code x · W + b}, exactly how the
 * ONNX graph's {@code MatMul} uses them. Values are drawn from {@link SplittableRandom}, whose sequence is
 * specified, so the same preset and seed give the same bytes on every JVM (and the same model SHA-256).
 * Weights are Gaussian with standard deviation 0.02 (BERT's initialiser); LayerNorm gains are 1 ± 0.02.
 */
public record EncoderWeights(EncoderConfig config, float[] tokenEmbedding, List<Layer> layers,
                             float[] headWeight, float[] headBias) {

    /** One post-LayerNorm encoder layer's parameters, in the order they are drawn. */
    public record Layer(LayerWeights.Attention attention, LayerWeights.Norm ln1, LayerWeights.FeedForward ffn,
                        LayerWeights.Norm ln2) {
    }

    private static final double STDDEV = 0.02;

    public static EncoderWeights generate(EncoderConfig config, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int h = config.hidden();
        int f = config.ffnHidden();
        float[] embedding = gaussian(random, config.vocabSize() * h);
        List<Layer> layers = new ArrayList<>(config.layers());
        for (int i = 0; i < config.layers(); i++) {
            layers.add(new Layer(LayerWeights.Attention.draw(random, h), LayerWeights.Norm.draw(random, h),
                    LayerWeights.FeedForward.draw(random, h, f), LayerWeights.Norm.draw(random, h)));
        }
        float[] headWeight = gaussian(random, h * config.numLabels());
        float[] headBias = gaussian(random, config.numLabels());
        return new EncoderWeights(config, embedding, List.copyOf(layers), headWeight, headBias);
    }

    /** n values, normal with standard deviation 0.02, from {@code random}'s stream (shared with {@link DecoderWeights}). */
    static float[] gaussian(SplittableRandom random, int n) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (gaussian(random) * STDDEV);
        }
        return values;
    }

    /** n LayerNorm gains: 1 plus {@link #gaussian}. */
    static float[] gain(SplittableRandom random, int n) {
        float[] values = gaussian(random, n);
        for (int i = 0; i < n; i++) {
            values[i] += 1f;
        }
        return values;
    }

    /** Box-Muller on the specified {@link SplittableRandom} stream (it has no nextGaussian of its own in Java 17). */
    private static double gaussian(SplittableRandom random) {
        double u1 = 1.0 - random.nextDouble(); // (0, 1]
        double u2 = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
    }
}
