package io.inferbench.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The built-in decoder in double precision, written from its definition and independent of both engines: what
 * {@link OnnxDecoderExporter}'s graph computes, one sequence at a time, with its own key/value cache. It is the third
 * voice in the greedy-token agreement check and the independent reference of the tests.
 */
public final class DecoderReference {
    private final DecoderWeights w;
    private final DecoderConfig c;

    public DecoderReference(DecoderWeights weights) {
        this.w = weights;
        this.c = weights.config();
    }

    /** Greedy generation of one sequence: the prompt, then {@code newTokens} tokens, each the argmax of the last logits. */
    public Generation generate(long[] prompt, int newTokens) {
        List<double[][]> keys = new ArrayList<>();   // per layer: positions x hidden (heads side by side)
        List<double[][]> values = new ArrayList<>();
        for (int l = 0; l < c.layers(); l++) {
            keys.add(new double[prompt.length + newTokens][]);
            values.add(new double[prompt.length + newTokens][]);
        }
        long[] tokens = new long[newTokens];
        List<double[]> logits = new ArrayList<>();
        double[] last = null;
        for (int position = 0; position < prompt.length; position++) {
            last = token(prompt[position], position, keys, values);
        }
        for (int i = 0; i < newTokens; i++) {
            double[] stepLogits = logits(last);
            logits.add(stepLogits);
            tokens[i] = argmax(stepLogits);
            if (i + 1 < newTokens) {
                last = token(tokens[i], prompt.length + i, keys, values);
            }
        }
        return new Generation(tokens, List.copyOf(logits));
    }

    /** The tokens chosen, and the logits each was chosen from. */
    public record Generation(long[] tokens, List<double[]> logits) {
    }

    /** Runs one token at {@code position} through every layer, appending its keys and values; returns its hidden state. */
    private double[] token(long id, int position, List<double[][]> keys, List<double[][]> values) {
        int h = c.hidden();
        double[] x = new double[h];
        for (int j = 0; j < h; j++) {
            x[j] = w.tokenEmbedding()[(int) id * h + j] + w.positionEmbedding()[position * h + j];
        }
        for (int l = 0; l < c.layers(); l++) {
            DecoderWeights.Layer layer = w.layers().get(l);
            double[] a = layerNorm(x, layer.ln1().gamma(), layer.ln1().beta());
            double[] q = linear(a, layer.attention().wq(), layer.attention().bq(), h, h);
            keys.get(l)[position] = linear(a, layer.attention().wk(), layer.attention().bk(), h, h);
            values.get(l)[position] = linear(a, layer.attention().wv(), layer.attention().bv(), h, h);
            double[] context = attend(q, keys.get(l), values.get(l), position);
            double[] attention = linear(context, layer.attention().wo(), layer.attention().bo(), h, h);
            for (int j = 0; j < h; j++) {
                x[j] += attention[j];
            }
            double[] down = feedForward(x, layer);
            for (int j = 0; j < h; j++) {
                x[j] += down[j];
            }
        }
        return x;
    }

    /** The layer's feed-forward of {@code x} (its LayerNorm, the GELU product and back), to add to {@code x}. */
    double[] feedForward(double[] x, DecoderWeights.Layer layer) {
        double[] up = linear(layerNorm(x, layer.ln2().gamma(), layer.ln2().beta()), layer.ffn().w1(), layer.ffn().b1(),
                c.hidden(), c.ffnHidden());
        for (int j = 0; j < up.length; j++) {
            up[j] = 0.5 * up[j] * (1 + erf(up[j] / Math.sqrt(2)));
        }
        return linear(up, layer.ffn().w2(), layer.ffn().b2(), c.ffnHidden(), c.hidden());
    }

    /** Multi-head attention of the query {@code q} over keys and values 0 … {@code position}. */
    double[] attend(double[] q, double[][] keys, double[][] values, int position) {
        int d = c.headDim();
        double[] context = new double[c.hidden()];
        double scale = 1.0 / Math.sqrt(d);
        for (int head = 0; head < c.heads(); head++) {
            int o = head * d;
            double[] scores = new double[position + 1];
            double max = Double.NEGATIVE_INFINITY;
            for (int t = 0; t <= position; t++) {
                double s = 0;
                for (int j = 0; j < d; j++) {
                    s += q[o + j] * keys[t][o + j];
                }
                scores[t] = s * scale;
                max = Math.max(max, scores[t]);
            }
            double sum = 0;
            for (int t = 0; t <= position; t++) {
                scores[t] = Math.exp(scores[t] - max);
                sum += scores[t];
            }
            for (int t = 0; t <= position; t++) {
                for (int j = 0; j < d; j++) {
                    context[o + j] += scores[t] / sum * values[t][o + j];
                }
            }
        }
        return context;
    }

    double[] logits(double[] x) {
        double[] normed = layerNorm(x, w.finalGamma(), w.finalBeta());
        return linear(normed, w.head(), null, c.hidden(), c.vocabSize());
    }

    double[] layerNorm(double[] x, float[] gamma, float[] beta) {
        double mean = 0;
        for (double v : x) {
            mean += v;
        }
        mean /= x.length;
        double variance = 0;
        for (double v : x) {
            variance += (v - mean) * (v - mean);
        }
        variance /= x.length;
        double inv = 1 / Math.sqrt(variance + c.layerNormEpsilon());
        double[] out = new double[x.length];
        for (int j = 0; j < x.length; j++) {
            out[j] = (x[j] - mean) * inv * gamma[j] + beta[j];
        }
        return out;
    }

    static double[] linear(double[] x, float[] weight, float[] bias, int in, int out) {
        double[] y = new double[out];
        for (int i = 0; i < in; i++) {
            double xi = x[i];
            int row = i * out;
            for (int j = 0; j < out; j++) {
                y[j] += xi * weight[row + j];
            }
        }
        if (bias != null) {
            for (int j = 0; j < out; j++) {
                y[j] += bias[j];
            }
        }
        return y;
    }

    static long argmax(double[] values) {
        int best = 0;
        for (int i = 1; i < values.length; i++) {
            if (values[i] > values[best]) {
                best = i;
            }
        }
        return best;
    }

    /** erf from Commons Math, to double precision. */
    private static double erf(double x) {
        return org.apache.commons.math3.special.Erf.erf(x);
    }
}
