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
 * same plain ops; ONNX Runtime is free to fuse them at its default optimisation level.
 */
public final class OnnxEncoderExporter {
    public static final String INPUT_IDS = "input_ids";
    public static final String LOGITS = "logits";
    /** Bump when the graph or the weight generator changes, so cached models are regenerated. */
    public static final int GENERATOR_VERSION = 1;

    private OnnxEncoderExporter() {
    }

    public static ModelProto export(EncoderWeights weights, String description) {
        EncoderConfig c = weights.config();
        int h = c.hidden();
        int f = c.ffnHidden();
        OnnxGraphBuilder g = new OnnxGraphBuilder("inferbench_encoder");
        g.input(INPUT_IDS, TensorProto.DataType.INT64, "batch", "seq");
        g.output(LOGITS, TensorProto.DataType.FLOAT, "batch", c.numLabels());

        String headsShape = g.int64Initializer("shape_heads", 0, 0, c.heads(), c.headDim());
        String hiddenShape = g.int64Initializer("shape_hidden", 0, 0, h);
        String scale = g.floatScalar("attention_scale", (float) (1.0 / Math.sqrt(c.headDim())));
        String half = g.floatScalar("half", 0.5f);
        String one = g.floatScalar("one", 1.0f);
        String sqrt2 = g.floatScalar("sqrt2", (float) Math.sqrt(2.0));

        String embedding = g.floatInitializer("token_embedding", weights.tokenEmbedding(), c.vocabSize(), h);
        String x = g.node("Gather", embedding, INPUT_IDS);

        for (int i = 0; i < c.layers(); i++) {
            EncoderWeights.Layer w = weights.layers().get(i);
            String p = "layer" + i + ".";
            String q = linear(g, x, g.floatInitializer(p + "wq", w.wq(), h, h), g.floatInitializer(p + "bq", w.bq(), h));
            String k = linear(g, x, g.floatInitializer(p + "wk", w.wk(), h, h), g.floatInitializer(p + "bk", w.bk(), h));
            String v = linear(g, x, g.floatInitializer(p + "wv", w.wv(), h, h), g.floatInitializer(p + "bv", w.bv(), h));

            String qh = g.node("Transpose", new String[] {g.node("Reshape", q, headsShape)}, intsAttribute("perm", 0, 2, 1, 3));
            String kt = g.node("Transpose", new String[] {g.node("Reshape", k, headsShape)}, intsAttribute("perm", 0, 2, 3, 1));
            String vh = g.node("Transpose", new String[] {g.node("Reshape", v, headsShape)}, intsAttribute("perm", 0, 2, 1, 3));
            String scores = g.node("Mul", g.node("MatMul", qh, kt), scale);
            String probs = g.node("Softmax", new String[] {scores}, intAttribute("axis", -1));
            String context = g.node("MatMul", probs, vh);
            String merged = g.node("Reshape",
                    g.node("Transpose", new String[] {context}, intsAttribute("perm", 0, 2, 1, 3)), hiddenShape);
            String attention = linear(g, merged,
                    g.floatInitializer(p + "wo", w.wo(), h, h), g.floatInitializer(p + "bo", w.bo(), h));
            String x1 = layerNorm(g, g.node("Add", x, attention), c,
                    g.floatInitializer(p + "ln1.gamma", w.ln1Gamma(), h), g.floatInitializer(p + "ln1.beta", w.ln1Beta(), h));

            String up = linear(g, x1, g.floatInitializer(p + "w1", w.w1(), h, f), g.floatInitializer(p + "b1", w.b1(), f));
            String gelu = g.node("Mul", g.node("Mul", up, half), g.node("Add", g.node("Erf", g.node("Div", up, sqrt2)), one));
            String down = linear(g, gelu, g.floatInitializer(p + "w2", w.w2(), f, h), g.floatInitializer(p + "b2", w.b2(), h));
            x = layerNorm(g, g.node("Add", x1, down), c,
                    g.floatInitializer(p + "ln2.gamma", w.ln2Gamma(), h), g.floatInitializer(p + "ln2.beta", w.ln2Beta(), h));
        }

        String pooled = g.node("ReduceMean", new String[] {x}, intsAttribute("axes", 1), intAttribute("keepdims", 0));
        String headW = g.floatInitializer("head.weight", weights.headWeight(), h, c.numLabels());
        String headB = g.floatInitializer("head.bias", weights.headBias(), c.numLabels());
        g.nodeWithOutput("Add", new String[] {g.node("MatMul", pooled, headW), headB}, LOGITS);
        return g.build(Integer.toString(GENERATOR_VERSION), description);
    }

    private static String linear(OnnxGraphBuilder g, String x, String weight, String bias) {
        return g.node("Add", g.node("MatMul", x, weight), bias);
    }

    private static String layerNorm(OnnxGraphBuilder g, String x, EncoderConfig c, String gamma, String beta) {
        return g.node("LayerNormalization", new String[] {x, gamma, beta},
                intAttribute("axis", -1), floatAttribute("epsilon", c.layerNormEpsilon()));
    }
}
