package io.inferbench.model;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import static io.inferbench.model.OnnxGraphBuilder.floatAttribute;
import static io.inferbench.model.OnnxGraphBuilder.intAttribute;
import static io.inferbench.model.OnnxGraphBuilder.intsAttribute;

/**
 * Writes a built-in decoder as one ONNX graph that serves both phases of generation, as Hugging Face's merged exports
 * do: the prefill is a pass with an empty cache ({@code past_sequence} 0) and the prompt; a decode step is a pass with
 * the cache so far and one token.
 *
 * <p>Inputs: {@code input_ids} and {@code position_ids}, int64 {@code [batch, seq]}; {@code attention_mask} int64
 * {@code [batch, past + seq]} (a key whose mask is 0 is not attended: left padding); per layer {@code past_key_values.N.key}
 * and {@code .value}, float {@code [batch, heads, past_sequence, headDim]}. Outputs: {@code logits} float
 * {@code [batch, vocab]}, <b>the last position's only</b> (what greedy generation reads; the head is not run on the
 * other positions), and per layer {@code present.N.key}/{@code .value} {@code [batch, heads, past_sequence + seq,
 * headDim]}: the past with this pass's keys and values appended.
 *
 * <p>Each layer is pre-LayerNorm (GPT-2): {@code x += Wo·attn(LN1(x)); x += W2·GELU(W1·LN2(x))}, GELU exact (from
 * {@code Erf}). Query i (at position past + i) sees keys 0 … past + i: the scores of later keys are set to -1e9 before the
 * softmax. The mask is built from the shapes inside the graph, so one graph takes any past and prompt length.
 *
 * <p><b>As optimum exports them.</b> The other {@link Variant}s are the same model as an export folder holds it, for the
 * examples and tests of generation with a user's export: {@link Variant#PREFILL} is {@code decoder_model.onnx} (no cache inputs),
 * {@link Variant#WITH_PAST} is {@code decoder_with_past_model.onnx}, and {@link Variant#MERGED} is
 * {@code decoder_model_merged.onnx}: a bool {@code use_cache_branch [1]} drives an {@code If} whose true branch passes
 * the cache inputs on and whose false branch drops them (a zero-length cache), so a pass with the flag false ignores the
 * past, as optimum's no-cache branch does.
 */
public final class OnnxDecoderExporter {
    /** Bump when the graph or the weight generator changes, so cached models are regenerated. */
    public static final int GENERATOR_VERSION = 2;

    /** The input of a merged export that chooses its branch, as optimum names it. */
    public static final String USE_CACHE_BRANCH = "use_cache_branch";

    /** Which graph of the model: the built-in's, or one file of an export folder. */
    public enum Variant {
        /**
         * The built-in: cache in and out, and an attention mask (since generator version 2), so that rows of different
         * lengths can share a batch under load (continuous batching pads them).
         */
        BUILTIN(true, true, false),
        /**
         * A decoder without an attention mask, as older or hand-written exports are: cache in and out; rows of different
         * lengths cannot share a batch (the example {@code user-decoder.onnx}).
         */
        UNMASKED(true, false, false),
        /** {@code decoder_model_merged.onnx}: cache in and out, a mask, and the branch flag. */
        MERGED(true, true, true),
        /** {@code decoder_model.onnx}: the prompt only, with a mask; the cache is an output only. */
        PREFILL(false, true, false),
        /** {@code decoder_with_past_model.onnx}: cache in and out, with a mask. */
        WITH_PAST(true, true, false);

        final boolean cacheInputs;
        final boolean mask;
        final boolean branch;

        Variant(boolean cacheInputs, boolean mask, boolean branch) {
            this.cacheInputs = cacheInputs;
            this.mask = mask;
            this.branch = branch;
        }
    }

    private OnnxDecoderExporter() {
    }

    public static ModelProto export(DecoderWeights weights, String description, DecoderNames names) {
        return export(weights, description, names, Variant.BUILTIN);
    }

    public static ModelProto export(DecoderWeights weights, String description, DecoderNames names, Variant variant) {
        DecoderConfig c = weights.config();
        int h = c.hidden();
        int f = c.ffnHidden();
        OnnxGraphBuilder g = new OnnxGraphBuilder("inferbench_decoder");
        g.input(names.inputIds(), TensorProto.DataType.INT64, "batch", "seq");
        if (variant.mask) {
            g.input("attention_mask", TensorProto.DataType.INT64, "batch", "total_sequence");
        }
        g.input(names.positionIds(), TensorProto.DataType.INT64, "batch", "seq");
        String[] pastKeys = new String[c.layers()];
        String[] pastValues = new String[c.layers()];
        if (variant.cacheInputs) {
            for (int i = 0; i < c.layers(); i++) {
                g.input(names.pastKey(i), TensorProto.DataType.FLOAT, "batch", c.heads(), "past_sequence", c.headDim());
                g.input(names.pastValue(i), TensorProto.DataType.FLOAT, "batch", c.heads(), "past_sequence", c.headDim());
                pastKeys[i] = names.pastKey(i);
                pastValues[i] = names.pastValue(i);
            }
        }
        if (variant.branch) {
            g.input(USE_CACHE_BRANCH, TensorProto.DataType.BOOL, 1);
            branchedCache(g, c, pastKeys, pastValues);
        }
        g.output(names.logits(), TensorProto.DataType.FLOAT, "batch", c.vocabSize());
        for (int i = 0; i < c.layers(); i++) {
            g.output(names.presentKey(i), TensorProto.DataType.FLOAT, "batch", c.heads(), "total_sequence", c.headDim());
            g.output(names.presentValue(i), TensorProto.DataType.FLOAT, "batch", c.heads(), "total_sequence", c.headDim());
        }

        String headsShape = g.int64Initializer("shape_heads", 0, 0, c.heads(), c.headDim());
        String hiddenShape = g.int64Initializer("shape_hidden", 0, 0, h);
        String scale = g.floatScalar("attention_scale", (float) (1.0 / Math.sqrt(c.headDim())));
        String masked = g.floatScalar("masked_score", -1e9f);
        String half = g.floatScalar("half", 0.5f);
        String one = g.floatScalar("one", 1.0f);
        String sqrt2 = g.floatScalar("sqrt2", (float) Math.sqrt(2.0));
        String zero = g.int64Scalar("zero", 0);
        String unit = g.int64Scalar("unit", 1);
        String two = g.int64Scalar("two", 2);
        String axis0 = g.int64Initializer("axes_0", 0);
        String axis1 = g.int64Initializer("axes_1", 1);

        // Positions: past = the cache's length, seq = this pass's tokens; query i is at past + i.
        String past = variant.cacheInputs
                ? g.node("Gather", new String[] {g.node("Shape", pastKeys[0]), two}, intAttribute("axis", 0)) : zero;
        String seq = g.node("Gather", new String[] {g.node("Shape", names.inputIds()), unit}, intAttribute("axis", 0));
        String total = g.node("Add", past, seq);
        String queryPositions = g.node("Range", past, total, unit);
        String keyPositions = g.node("Range", zero, total, unit);
        String future = g.node("Greater", g.node("Unsqueeze", keyPositions, axis0), g.node("Unsqueeze", queryPositions, axis1));
        if (variant.mask) {
            // [batch, total] -> [batch, 1, 1, total]: a key with mask 0 is blocked for every head and query.
            String padded = g.node("Unsqueeze", g.node("Equal", "attention_mask", zero), g.int64Initializer("axes_1_2", 1, 2));
            future = g.node("Or", future, padded);
        }

        String tokenTable = g.floatInitializer("token_embedding", weights.tokenEmbedding(), c.vocabSize(), h);
        String positionTable = g.floatInitializer("position_embedding", weights.positionEmbedding(), c.maxPositions(), h);
        String x = g.node("Add", g.node("Gather", tokenTable, names.inputIds()), g.node("Gather", positionTable, names.positionIds()));

        for (int i = 0; i < c.layers(); i++) {
            DecoderWeights.Layer l = weights.layers().get(i);
            String p = "layer" + i + ".";
            String a = layerNorm(g, x, c, g.floatInitializer(p + "ln1.gamma", l.ln1().gamma(), h),
                    g.floatInitializer(p + "ln1.beta", l.ln1().beta(), h));
            String q = linear(g, a, p + "wq", l.attention().wq(), h, h, p + "bq", l.attention().bq());
            String k = linear(g, a, p + "wk", l.attention().wk(), h, h, p + "bk", l.attention().bk());
            String v = linear(g, a, p + "wv", l.attention().wv(), h, h, p + "bv", l.attention().bv());
            String qh = heads(g, q, headsShape);
            String keys = names.presentKey(i);
            String values = names.presentValue(i);
            if (variant.cacheInputs) {
                g.nodeWithOutput("Concat", new String[] {pastKeys[i], heads(g, k, headsShape)}, keys, intAttribute("axis", 2));
                g.nodeWithOutput("Concat", new String[] {pastValues[i], heads(g, v, headsShape)}, values, intAttribute("axis", 2));
            } else {
                g.nodeWithOutput("Identity", new String[] {heads(g, k, headsShape)}, keys);
                g.nodeWithOutput("Identity", new String[] {heads(g, v, headsShape)}, values);
            }
            String kt = g.node("Transpose", new String[] {keys}, intsAttribute("perm", 0, 1, 3, 2));
            String scores = g.node("Mul", g.node("MatMul", qh, kt), scale);
            String probs = g.node("Softmax", new String[] {g.node("Where", future, masked, scores)}, intAttribute("axis", -1));
            String context = g.node("Reshape", g.node("Transpose", new String[] {g.node("MatMul", probs, values)},
                    intsAttribute("perm", 0, 2, 1, 3)), hiddenShape);
            x = g.node("Add", x, linear(g, context, p + "wo", l.attention().wo(), h, h, p + "bo", l.attention().bo()));
            String m = layerNorm(g, x, c, g.floatInitializer(p + "ln2.gamma", l.ln2().gamma(), h),
                    g.floatInitializer(p + "ln2.beta", l.ln2().beta(), h));
            String up = linear(g, m, p + "w1", l.ffn().w1(), h, f, p + "b1", l.ffn().b1());
            String gelu = g.node("Mul", g.node("Mul", up, half), g.node("Add", g.node("Erf", g.node("Div", up, sqrt2)), one));
            x = g.node("Add", x, linear(g, gelu, p + "w2", l.ffn().w2(), f, h, p + "b2", l.ffn().b2()));
        }
        String last = g.node("Gather", new String[] {x, g.node("Sub", seq, unit)}, intAttribute("axis", 1));
        String normed = layerNorm(g, last, c, g.floatInitializer("final.gamma", weights.finalGamma(), h),
                g.floatInitializer("final.beta", weights.finalBeta(), h));
        g.nodeWithOutput("MatMul", new String[] {normed, g.floatInitializer("head", weights.head(), h, c.vocabSize())}, names.logits());
        return g.build(Integer.toString(GENERATOR_VERSION), description);
    }

    /**
     * The merged export's branch: an {@code If} on {@code use_cache_branch} whose outputs replace the cache inputs in
     * {@code keys} and {@code values}: the inputs themselves when true, a zero-length slice of them when false.
     */
    private static void branchedCache(OnnxGraphBuilder g, DecoderConfig c, String[] keys, String[] values) {
        OnnxGraphBuilder withCache = new OnnxGraphBuilder("use_cache", "with_cache_");
        OnnxGraphBuilder withoutCache = new OnnxGraphBuilder("no_cache", "no_cache_");
        String start = withoutCache.int64Initializer("no_cache_start", 0);
        String axis = withoutCache.int64Initializer("no_cache_axis", 2);
        String[] outputs = new String[2 * c.layers()];
        for (int i = 0; i < c.layers(); i++) {
            for (int kv = 0; kv < 2; kv++) {
                String[] cache = kv == 0 ? keys : values;
                int slot = 2 * i + kv;
                String kept = withCache.node("Identity", cache[i]);
                withCache.output(kept, TensorProto.DataType.FLOAT, "batch", c.heads(), "past_sequence", c.headDim());
                String dropped = withoutCache.node("Slice", cache[i], start, start, axis);
                withoutCache.output(dropped, TensorProto.DataType.FLOAT, "batch", c.heads(), 0, c.headDim());
                outputs[slot] = "cache_in." + i + (kv == 0 ? ".key" : ".value");
                cache[i] = outputs[slot];
            }
        }
        g.ifNode(USE_CACHE_BRANCH, withCache, withoutCache, outputs);
    }

    private static String heads(OnnxGraphBuilder g, String x, String headsShape) {
        return g.node("Transpose", new String[] {g.node("Reshape", x, headsShape)}, intsAttribute("perm", 0, 2, 1, 3));
    }

    static String linear(OnnxGraphBuilder g, String x, String weightName, float[] weight, int in, int out,
                                 String biasName, float[] bias) {
        return g.node("Add", g.node("MatMul", x, g.floatInitializer(weightName, weight, in, out)), g.floatInitializer(biasName, bias, out));
    }

    static String layerNorm(OnnxGraphBuilder g, String x, DecoderConfig c, String gamma, String beta) {
        return g.node("LayerNormalization", new String[] {x, gamma, beta},
                intAttribute("axis", -1), floatAttribute("epsilon", c.layerNormEpsilon()));
    }

    /** As {@link #layerNorm}, into the value named {@code output} (a graph output). */
    static void layerNormTo(OnnxGraphBuilder g, String x, DecoderConfig c, String gamma, String beta, String output) {
        g.nodeWithOutput("LayerNormalization", new String[] {x, gamma, beta}, output,
                intAttribute("axis", -1), floatAttribute("epsilon", c.layerNormEpsilon()));
    }
}
