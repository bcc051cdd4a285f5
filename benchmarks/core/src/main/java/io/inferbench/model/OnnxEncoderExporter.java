package io.inferbench.model;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import static io.inferbench.model.OnnxGraphBuilder.floatAttribute;
import static io.inferbench.model.OnnxGraphBuilder.intAttribute;
import static io.inferbench.model.OnnxGraphBuilder.intsAttribute;

/**
 * Writes the built-in encoder classifier as an ONNX graph with dynamic {@code batch} and {@code seq} axes.
 *
 * <p>Input {@code input_ids} int64 {@code [batch, seq]}; output {@code logits} float {@code [batch, numLabels]}.
 * Each layer is post-LayerNorm (BERT): {@code x = LN(x + MHA(x)); x = LN(x + W2·GELU(W1·x))}, with exact GELU
 * from {@code Erf}. Attention is spelled out with Reshape/Transpose/MatMul/Softmax so every runtime sees the
 * same plain ops; an engine is free to fuse them at its default optimisation level.
 */
public final class OnnxEncoderExporter {
    public static final String INPUT_IDS = "input_ids";
    public static final String LOGITS = "logits";
    /** Bump when the graph or the weight generator changes, so cached models are regenerated. */
    public static final int GENERATOR_VERSION = 1;

    private OnnxEncoderExporter() {
    }

    /** The float32 graph. */
    public static ModelProto export(EncoderWeights weights, String description) {
        return export(weights, description, Precision.FP32);
    }

    /**
     * The graph at {@code precision}, from the same weights: FP32 as they are; INT8 with every weight product quantized
     * ({@link Precision#INT8}); FP16 with every weight and activation in float16 and the logits cast back to float32.
     * Inputs and outputs are the same in all three (name, type, shape), so their outputs can be compared.
     */
    public static ModelProto export(EncoderWeights weights, String description, Precision precision) {
        EncoderConfig c = weights.config();
        int h = c.hidden();
        int f = c.ffnHidden();
        OnnxGraphBuilder g = new OnnxGraphBuilder("inferbench_encoder");
        Params w = new Params(g, precision);
        g.input(INPUT_IDS, TensorProto.DataType.INT64, "batch", "seq");
        g.output(LOGITS, TensorProto.DataType.FLOAT, "batch", c.numLabels());

        String headsShape = g.int64Initializer("shape_heads", 0, 0, c.heads(), c.headDim());
        String hiddenShape = g.int64Initializer("shape_hidden", 0, 0, h);
        String scale = w.scalar("attention_scale", (float) (1.0 / Math.sqrt(c.headDim())));
        String half = w.scalar("half", 0.5f);
        String one = w.scalar("one", 1.0f);
        String sqrt2 = w.scalar("sqrt2", (float) Math.sqrt(2.0));

        String embedding = w.tensor("token_embedding", weights.tokenEmbedding(), c.vocabSize(), h);
        String x = g.node("Gather", embedding, INPUT_IDS);

        for (int i = 0; i < c.layers(); i++) {
            EncoderWeights.Layer l = weights.layers().get(i);
            String p = "layer" + i + ".";
            String q = w.linear(x, p + "wq", l.attention().wq(), h, h, p + "bq", l.attention().bq());
            String k = w.linear(x, p + "wk", l.attention().wk(), h, h, p + "bk", l.attention().bk());
            String v = w.linear(x, p + "wv", l.attention().wv(), h, h, p + "bv", l.attention().bv());

            String qh = g.node("Transpose", new String[] {g.node("Reshape", q, headsShape)}, intsAttribute("perm", 0, 2, 1, 3));
            String kt = g.node("Transpose", new String[] {g.node("Reshape", k, headsShape)}, intsAttribute("perm", 0, 2, 3, 1));
            String vh = g.node("Transpose", new String[] {g.node("Reshape", v, headsShape)}, intsAttribute("perm", 0, 2, 1, 3));
            String scores = g.node("Mul", g.node("MatMul", qh, kt), scale);
            String probs = g.node("Softmax", new String[] {scores}, intAttribute("axis", -1));
            String context = g.node("MatMul", probs, vh);
            String merged = g.node("Reshape",
                    g.node("Transpose", new String[] {context}, intsAttribute("perm", 0, 2, 1, 3)), hiddenShape);
            String attention = w.linear(merged, p + "wo", l.attention().wo(), h, h, p + "bo", l.attention().bo());
            String x1 = layerNorm(g, g.node("Add", x, attention), c,
                    w.tensor(p + "ln1.gamma", l.ln1().gamma(), h), w.tensor(p + "ln1.beta", l.ln1().beta(), h));

            String up = w.linear(x1, p + "w1", l.ffn().w1(), h, f, p + "b1", l.ffn().b1());
            String gelu = g.node("Mul", g.node("Mul", up, half), g.node("Add", g.node("Erf", g.node("Div", up, sqrt2)), one));
            String down = w.linear(gelu, p + "w2", l.ffn().w2(), f, h, p + "b2", l.ffn().b2());
            x = layerNorm(g, g.node("Add", x1, down), c,
                    w.tensor(p + "ln2.gamma", l.ln2().gamma(), h), w.tensor(p + "ln2.beta", l.ln2().beta(), h));
        }

        String pooled = g.node("ReduceMean", new String[] {x}, intsAttribute("axes", 1), intAttribute("keepdims", 0));
        if (precision == Precision.FP16) {
            String logits = w.linear(pooled, "head.weight", weights.headWeight(), h, c.numLabels(), "head.bias", weights.headBias());
            g.nodeWithOutput("Cast", new String[] {logits}, LOGITS, intAttribute("to", TensorProto.DataType.FLOAT.getNumber()));
        } else {
            w.linear(pooled, "head.weight", weights.headWeight(), h, c.numLabels(), "head.bias", weights.headBias(), LOGITS);
        }
        return g.build(Integer.toString(GENERATOR_VERSION), description);
    }

    private static String layerNorm(OnnxGraphBuilder g, String x, EncoderConfig c, String gamma, String beta) {
        return g.node("LayerNormalization", new String[] {x, gamma, beta},
                intAttribute("axis", -1), floatAttribute("epsilon", c.layerNormEpsilon()));
    }

    /** Writes parameters and weight products at one precision. */
    private record Params(OnnxGraphBuilder g, Precision precision) {
        String tensor(String name, float[] values, long... dims) {
            return precision == Precision.FP16 ? g.float16Initializer(name, values, dims) : g.floatInitializer(name, values, dims);
        }

        String scalar(String name, float value) {
            return precision == Precision.FP16 ? g.float16Initializer(name, new float[] {value}) : g.floatScalar(name, value);
        }

        String linear(String x, String weightName, float[] weight, int in, int out, String biasName, float[] bias) {
            return linear(x, weightName, weight, in, out, biasName, bias, null);
        }

        /**
         * {@code x · W + b} for W {@code [in, out]}, into {@code output} (or a generated name when null); at INT8,
         * quantized as {@link Precision#INT8} says. Initializers and nodes are added in the same order at every precision,
         * so the FP32 graph is byte for byte what earlier generator-1 builds wrote.
         */
        String linear(String x, String weightName, float[] weight, int in, int out, String biasName, float[] bias,
                      String output) {
            String product;
            String b;
            if (precision != Precision.INT8) {
                String wt = tensor(weightName, weight, in, out);
                b = tensor(biasName, bias, out);
                product = g.node("MatMul", x, wt);
            } else {
                Quantized q = Quantized.perColumn(weight, in, out);
                String wq = g.int8Initializer(weightName + ".int8", q.values(), in, out);
                String ws = g.floatInitializer(weightName + ".scale", q.scales(), out);
                b = tensor(biasName, bias, out);
                String[] xq = g.nodeWithOutputs("DynamicQuantizeLinear", new String[] {x}, 3); // uint8 x, its scale, zero point
                String acc = g.node("MatMulInteger", xq[0], wq, xq[2]);                        // int32; weights' zero point 0
                String accf = g.node("Cast", new String[] {acc}, intAttribute("to", TensorProto.DataType.FLOAT.getNumber()));
                product = g.node("Mul", accf, g.node("Mul", xq[1], ws));
            }
            if (output == null) {
                return g.node("Add", product, b);
            }
            g.nodeWithOutput("Add", new String[] {product, b}, output);
            return output;
        }
    }

    /**
     * Symmetric int8 per output channel: for column n, scale = max |W[., n]| / 127 and q = round(W / scale), within
     * [-127, 127], zero point 0 (a column of zeros gets scale 1).
     */
    record Quantized(byte[] values, float[] scales) {
        static Quantized perColumn(float[] w, int rows, int cols) {
            float[] scales = new float[cols];
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    scales[c] = Math.max(scales[c], Math.abs(w[r * cols + c]));
                }
            }
            for (int c = 0; c < cols; c++) {
                scales[c] = scales[c] == 0 ? 1f : scales[c] / 127f;
            }
            byte[] q = new byte[w.length];
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    q[r * cols + c] = (byte) Math.max(-127, Math.min(127, Math.round(w[r * cols + c] / scales[c])));
                }
            }
            return new Quantized(q, scales);
        }
    }
}
