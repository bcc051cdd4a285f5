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

    /** One encoder layer's parameters. Shapes in the comments use h = hidden, f = ffnHidden. */
    public record Layer(
            float[] wq, float[] bq,   // [h, h], [h]
            float[] wk, float[] bk,
            float[] wv, float[] bv,
            float[] wo, float[] bo,
            float[] ln1Gamma, float[] ln1Beta,
            float[] w1, float[] b1,   // [h, f], [f]
            float[] w2, float[] b2,   // [f, h], [h]
            float[] ln2Gamma, float[] ln2Beta) {
    }

    private static final double STDDEV = 0.02;

    public static EncoderWeights generate(EncoderConfig config, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int h = config.hidden();
        int f = config.ffnHidden();
        float[] embedding = gaussian(random, config.vocabSize() * h);
        List<Layer> layers = new ArrayList<>(config.layers());
        for (int i = 0; i < config.layers(); i++) {
            layers.add(new Layer(
                    gaussian(random, h * h), gaussian(random, h),
                    gaussian(random, h * h), gaussian(random, h),
                    gaussian(random, h * h), gaussian(random, h),
                    gaussian(random, h * h), gaussian(random, h),
                    gain(random, h), gaussian(random, h),
                    gaussian(random, h * f), gaussian(random, f),
                    gaussian(random, f * h), gaussian(random, h),
                    gain(random, h), gaussian(random, h)));
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
