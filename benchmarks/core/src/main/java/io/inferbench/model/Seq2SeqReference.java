package io.inferbench.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The example encoder-decoder ({@link OnnxSeq2SeqExporter}) in double precision, one sequence at a time, written from
 * its definition and independent of the engines: the encoder over the whole source, then greedy decoding from the start
 * token, each step attending to the decoder's tokens so far and to every source position. The reference of the tests.
 */
public final class Seq2SeqReference {
    private final Seq2SeqWeights w;
    private final DecoderConfig c;
    private final DecoderReference math;

    public Seq2SeqReference(Seq2SeqWeights weights) {
        this.w = weights;
        this.c = weights.config();
        this.math = new DecoderReference(weights.decoder());
    }

    /** The encoder's states of a text source: its ids, every position attended. */
    public double[][] encodeText(long[] ids) {
        double[][] x = new double[ids.length][];
        for (int t = 0; t < ids.length; t++) {
            x[t] = new double[c.hidden()];
            for (int j = 0; j < c.hidden(); j++) {
                x[t][j] = w.encoder().tokenEmbedding()[(int) ids[t] * c.hidden() + j] + w.encoder().positionEmbedding()[t * c.hidden() + j];
            }
        }
        return encode(x);
    }

    /** The encoder's states of audio features, {@code [frames][featureSize]}. */
    public double[][] encodeAudio(float[][] features) {
        double[][] x = new double[features.length][];
        for (int t = 0; t < features.length; t++) {
            x[t] = DecoderReference.linear(toDouble(features[t]), w.features(), null, w.featureSize(), c.hidden());
            for (int j = 0; j < c.hidden(); j++) {
                x[t][j] += w.encoder().positionEmbedding()[t * c.hidden() + j];
            }
        }
        return encode(x);
    }

    private double[][] encode(double[][] x) {
        int h = c.hidden();
        for (DecoderWeights.Layer l : w.encoder().layers()) {
            double[][] keys = new double[x.length][];
            double[][] values = new double[x.length][];
            double[][] queries = new double[x.length][];
            for (int t = 0; t < x.length; t++) {
                double[] a = math.layerNorm(x[t], l.ln1().gamma(), l.ln1().beta());
                queries[t] = DecoderReference.linear(a, l.attention().wq(), l.attention().bq(), h, h);
                keys[t] = DecoderReference.linear(a, l.attention().wk(), l.attention().bk(), h, h);
                values[t] = DecoderReference.linear(a, l.attention().wv(), l.attention().bv(), h, h);
            }
            for (int t = 0; t < x.length; t++) {
                add(x[t], DecoderReference.linear(math.attend(queries[t], keys, values, x.length - 1),
                        l.attention().wo(), l.attention().bo(), h, h));
                add(x[t], math.feedForward(x[t], l));
            }
        }
        double[][] out = new double[x.length][];
        for (int t = 0; t < x.length; t++) {
            out[t] = math.layerNorm(x[t], w.encoder().finalGamma(), w.encoder().finalBeta());
        }
        return out;
    }

    /** Greedy decoding of {@code newTokens} tokens from {@code startToken}, against the encoder's {@code states}. */
    public long[] generate(double[][] states, long startToken, int newTokens) {
        int h = c.hidden();
        List<double[][]> crossKeys = new ArrayList<>();
        List<double[][]> crossValues = new ArrayList<>();
        for (DecoderWeights.Layer cl : w.cross().layers()) {
            double[][] k = new double[states.length][];
            double[][] v = new double[states.length][];
            for (int t = 0; t < states.length; t++) {
                k[t] = DecoderReference.linear(states[t], cl.attention().wk(), cl.attention().bk(), h, h);
                v[t] = DecoderReference.linear(states[t], cl.attention().wv(), cl.attention().bv(), h, h);
            }
            crossKeys.add(k);
            crossValues.add(v);
        }
        List<double[][]> keys = new ArrayList<>();
        List<double[][]> values = new ArrayList<>();
        for (int l = 0; l < c.layers(); l++) {
            keys.add(new double[newTokens][]);
            values.add(new double[newTokens][]);
        }
        long[] tokens = new long[newTokens];
        long token = startToken;
        for (int position = 0; position < newTokens; position++) {
            double[] x = new double[h];
            for (int j = 0; j < h; j++) {
                x[j] = w.decoder().tokenEmbedding()[(int) token * h + j] + w.decoder().positionEmbedding()[position * h + j];
            }
            for (int l = 0; l < c.layers(); l++) {
                DecoderWeights.Layer layer = w.decoder().layers().get(l);
                DecoderWeights.Layer cl = w.cross().layers().get(l);
                double[] a = math.layerNorm(x, layer.ln1().gamma(), layer.ln1().beta());
                double[] q = DecoderReference.linear(a, layer.attention().wq(), layer.attention().bq(), h, h);
                keys.get(l)[position] = DecoderReference.linear(a, layer.attention().wk(), layer.attention().bk(), h,
                        h);
                values.get(l)[position] = DecoderReference.linear(a, layer.attention().wv(), layer.attention().bv(), h,
                        h);
                add(x, DecoderReference.linear(math.attend(q, keys.get(l), values.get(l), position),
                        layer.attention().wo(), layer.attention().bo(), h, h));
                double[] ca = math.layerNorm(x, cl.ln1().gamma(), cl.ln1().beta());
                double[] cq = DecoderReference.linear(ca, cl.attention().wq(), cl.attention().bq(), h, h);
                add(x, DecoderReference.linear(math.attend(cq, crossKeys.get(l), crossValues.get(l),
                        states.length - 1), cl.attention().wo(),
                        cl.attention().bo(), h, h));
                add(x, math.feedForward(x, layer));
            }
            tokens[position] = DecoderReference.argmax(math.logits(x));
            token = tokens[position];
        }
        return tokens;
    }

    private static void add(double[] x, double[] y) {
        for (int j = 0; j < x.length; j++) {
            x[j] += y[j];
        }
    }

    private static double[] toDouble(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }
}
