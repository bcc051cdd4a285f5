package io.inferbench.model;

/**
 * The built-in encoder computed the slow, obvious way, in double precision, straight from
 * {@link EncoderWeights}: an independent check of the ONNX graph that {@link OnnxEncoderExporter} writes.
 * Shares no code with the exporter beyond the weights themselves.
 */
final class ReferenceEncoder {
    private final EncoderWeights w;
    private final EncoderConfig c;

    ReferenceEncoder(EncoderWeights weights) {
        this.w = weights;
        this.c = weights.config();
    }

    /** Logits {@code [batch][numLabels]} for row-major token ids {@code [batch, seqLen]}. */
    double[][] logits(long[] ids, int batch, int seqLen) {
        double[][] out = new double[batch][];
        for (int b = 0; b < batch; b++) {
            double[][] x = new double[seqLen][];
            for (int s = 0; s < seqLen; s++) {
                x[s] = row(w.tokenEmbedding(), (int) ids[b * seqLen + s], c.hidden());
            }
            for (EncoderWeights.Layer layer : w.layers()) {
                x = layer(x, layer);
            }
            double[] pooled = new double[c.hidden()];
            for (double[] token : x) {
                for (int i = 0; i < pooled.length; i++) {
                    pooled[i] += token[i] / seqLen;
                }
            }
            out[b] = affine(pooled, w.headWeight(), w.headBias(), c.hidden(), c.numLabels());
        }
        return out;
    }

    private double[][] layer(double[][] x, EncoderWeights.Layer l) {
        int seq = x.length;
        int h = c.hidden();
        int heads = c.heads();
        int d = c.headDim();
        double[][] q = new double[seq][];
        double[][] k = new double[seq][];
        double[][] v = new double[seq][];
        for (int s = 0; s < seq; s++) {
            q[s] = affine(x[s], l.attention().wq(), l.attention().bq(), h, h);
            k[s] = affine(x[s], l.attention().wk(), l.attention().bk(), h, h);
            v[s] = affine(x[s], l.attention().wv(), l.attention().bv(), h, h);
        }
        double[][] context = new double[seq][h];
        for (int head = 0; head < heads; head++) {
            for (int i = 0; i < seq; i++) {
                double[] scores = new double[seq];
                double max = Double.NEGATIVE_INFINITY;
                for (int j = 0; j < seq; j++) {
                    double dot = 0;
                    for (int e = 0; e < d; e++) {
                        dot += q[i][head * d + e] * k[j][head * d + e];
                    }
                    scores[j] = dot / Math.sqrt(d);
                    max = Math.max(max, scores[j]);
                }
                double sum = 0;
                for (int j = 0; j < seq; j++) {
                    scores[j] = Math.exp(scores[j] - max);
                    sum += scores[j];
                }
                for (int j = 0; j < seq; j++) {
                    for (int e = 0; e < d; e++) {
                        context[i][head * d + e] += scores[j] / sum * v[j][head * d + e];
                    }
                }
            }
        }
        double[][] out = new double[seq][];
        for (int s = 0; s < seq; s++) {
            double[] attn = affine(context[s], l.attention().wo(), l.attention().bo(), h, h);
            double[] x1 = layerNorm(add(x[s], attn), l.ln1().gamma(), l.ln1().beta());
            double[] up = affine(x1, l.ffn().w1(), l.ffn().b1(), h, c.ffnHidden());
            for (int i = 0; i < up.length; i++) {
                up[i] = 0.5 * up[i] * (1 + erf(up[i] / Math.sqrt(2)));
            }
            double[] down = affine(up, l.ffn().w2(), l.ffn().b2(), c.ffnHidden(), h);
            out[s] = layerNorm(add(x1, down), l.ln2().gamma(), l.ln2().beta());
        }
        return out;
    }

    private static double[] row(float[] matrix, int row, int width) {
        double[] r = new double[width];
        for (int i = 0; i < width; i++) {
            r[i] = matrix[row * width + i];
        }
        return r;
    }

    /** {@code x · W + b} with W row-major {@code [in, out]}. */
    private static double[] affine(double[] x, float[] weight, float[] bias, int in, int out) {
        double[] y = new double[out];
        for (int o = 0; o < out; o++) {
            double acc = bias[o];
            for (int i = 0; i < in; i++) {
                acc += x[i] * weight[i * out + o];
            }
            y[o] = acc;
        }
        return y;
    }

    private static double[] add(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] + b[i];
        }
        return r;
    }

    private double[] layerNorm(double[] x, float[] gamma, float[] beta) {
        double mean = 0;
        for (double v : x) {
            mean += v / x.length;
        }
        double var = 0;
        for (double v : x) {
            var += (v - mean) * (v - mean) / x.length;
        }
        double[] r = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            r[i] = (x[i] - mean) / Math.sqrt(var + c.layerNormEpsilon()) * gamma[i] + beta[i];
        }
        return r;
    }

    /** Abramowitz-Stegun 7.1.26 is too coarse for 1e-4 logits; use the series/continued-fraction via erfc. */
    static double erf(double x) {
        return 1 - erfc(x);
    }

    /** Numerical Recipes' erfc (Chebyshev fit, fractional error below 1.2e-7 everywhere). */
    private static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double ans = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? ans : 2 - ans;
    }
}
