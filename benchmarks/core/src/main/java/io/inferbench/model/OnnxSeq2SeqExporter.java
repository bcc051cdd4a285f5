package io.inferbench.model;

import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.TensorProto;

import static io.inferbench.model.OnnxGraphBuilder.intAttribute;
import static io.inferbench.model.OnnxGraphBuilder.intsAttribute;

/**
 * Writes an encoder-decoder as optimum's export folder holds one ({@code encoder_model.onnx},
 * {@code decoder_model.onnx}, {@code decoder_with_past_model.onnx}), with its names:
 *
 * <ul>
 *   <li><b>Encoder.</b> Text ({@link Input#TEXT}, as T5, BART and Marian): {@code input_ids} and {@code attention_mask}
 *       int64 {@code [batch, encoder_sequence]}, token and position embeddings. Audio ({@link Input#AUDIO}, as Whisper):
 *       {@code input_features} float {@code [batch, frames, featureSize]}, projected to the hidden size, and position
 *       embeddings. Then pre-LayerNorm layers of bidirectional self-attention (a masked source position is not attended)
 *       and a GELU feed-forward, a final LayerNorm: {@code last_hidden_state [batch, encoder_sequence, hidden]}.</li>
 *   <li><b>Decoder.</b> Pre-LayerNorm layers of causal self-attention with its cache, cross-attention over the encoder's
 *       states, and the feed-forward; a final LayerNorm and the head on the last position: {@code logits [batch,
 *       vocab]}. Positions are the cache's length on, computed inside (no {@code position_ids}). Self-attention caches
 *       are {@code past_key_values.N.decoder.key/value} in, {@code present.N.decoder.key/value} out; the cross-attention
 *       caches are {@code present.N.encoder.key/value}, computed from {@code encoder_hidden_states} by
 *       {@code decoder_model.onnx} only, and taken as {@code past_key_values.N.encoder.key/value} by
 *       {@code decoder_with_past_model.onnx}, which does not output them again. The text decoder also takes
 *       {@code encoder_attention_mask}.</li>
 * </ul>
 * {@link Seq2SeqReference} is the same model in double precision.
 */
public final class OnnxSeq2SeqExporter {
    /** Bump when the graphs or the weights change, so the built-in's cached folder is written again. */
    public static final int GENERATOR_VERSION = 1;

    /** What the encoder takes. */
    public enum Input { TEXT, AUDIO }

    private OnnxSeq2SeqExporter() {
    }

    public static ModelProto encoder(Seq2SeqWeights weights, Input input, String description) {
        return encoder(weights, input, null, description);
    }

    /**
     * As above, an audio encoder's frames fixed at {@code fixedFrames} (null: a dynamic {@code frames} axis), as
     * Whisper's export fixes them (3000 frames of 80 mel bins): an encoder with no axis for the sweep's lengths, whose
     * generation runs batch only.
     */
    public static ModelProto encoder(Seq2SeqWeights weights, Input input, Integer fixedFrames, String description) {
        DecoderConfig c = weights.config();
        DecoderWeights w = weights.encoder();
        int h = c.hidden();
        OnnxGraphBuilder g = new OnnxGraphBuilder("inferbench_encoder");
        String x;
        String blocked = null;
        String unit = g.int64Scalar("unit", 1);
        String zero = g.int64Scalar("zero", 0);
        String positionTable = g.floatInitializer("position_embedding", w.positionEmbedding(), c.maxPositions(), h);
        if (input == Input.TEXT) {
            g.input("input_ids", TensorProto.DataType.INT64, "batch_size", "encoder_sequence_length");
            g.input("attention_mask", TensorProto.DataType.INT64, "batch_size", "encoder_sequence_length");
            String length = g.node("Gather", new String[] {g.node("Shape", "input_ids"), unit}, intAttribute("axis", 0));
            String positions = g.node("Range", zero, length, unit);
            x = g.node("Add", g.node("Gather", g.floatInitializer("token_embedding", w.tokenEmbedding(), c.vocabSize(), h),
                    "input_ids"), g.node("Gather", positionTable, positions));
            blocked = g.node("Unsqueeze", g.node("Equal", "attention_mask", zero), g.int64Initializer("axes_1_2", 1, 2));
        } else {
            if (fixedFrames == null) {
                g.input("input_features", TensorProto.DataType.FLOAT, "batch_size", "frames", weights.featureSize());
            } else {
                g.input("input_features", TensorProto.DataType.FLOAT, "batch_size", fixedFrames, weights.featureSize());
            }
            String length = g.node("Gather", new String[] {g.node("Shape", "input_features"), unit}, intAttribute("axis", 0));
            String positions = g.node("Range", zero, length, unit);
            x = g.node("Add", g.node("MatMul", "input_features", g.floatInitializer("feature_projection", weights.features(),
                    weights.featureSize(), h)), g.node("Gather", positionTable, positions));
        }
        g.output("last_hidden_state", TensorProto.DataType.FLOAT, "batch_size", "encoder_sequence_length", h);
        Shapes s = new Shapes(g, c);
        for (int i = 0; i < c.layers(); i++) {
            DecoderWeights.Layer l = w.layers().get(i);
            String p = "encoder.layer" + i + ".";
            String[] qkv = s.selfAttention(x, l, p);
            String q = qkv[0];
            String k = qkv[1];
            String v = qkv[2];
            x = g.node("Add", x, OnnxDecoderExporter.linear(g, s.attend(q, k, v, blocked), p + "wo",
                    l.attention().wo(), h, h, p + "bo", l.attention().bo()));
            x = feedForward(g, x, c, l, p);
        }
        OnnxDecoderExporter.layerNormTo(g, x, c, g.floatInitializer("encoder.final.gamma", w.finalGamma(), h),
                g.floatInitializer("encoder.final.beta", w.finalBeta(), h), "last_hidden_state");
        return g.build("seq2seq-" + GENERATOR_VERSION, description);
    }

    /** Which decoder graph of the export. */
    public enum Graph {
        /** {@code decoder_model.onnx}: the first pass, no cache in, the cross-attention caches computed and output. */
        FIRST,
        /** {@code decoder_with_past_model.onnx}: every cache in, the self-attention ones out. */
        WITH_PAST,
        /**
         * {@code decoder_model_merged.onnx}: every cache in and out, and {@code encoder_hidden_states}; its
         * {@code use_cache_branch} chooses, in an {@code If}, between the caches as given (true) and, when false, no self
         * cache and the cross-attention caches computed from {@code encoder_hidden_states}, as optimum's merged
         * encoder-decoders do.
         */
        MERGED
    }

    /**
     * A decoder: {@code withPast} false is {@code decoder_model.onnx} (the first pass: no cache in, the cross-attention
     * caches computed and output), true {@code decoder_with_past_model.onnx} (every cache in, the self-attention ones out).
     */
    public static ModelProto decoder(Seq2SeqWeights weights, Input input, boolean withPast, String description) {
        return decoder(weights, input, withPast ? Graph.WITH_PAST : Graph.FIRST, description);
    }

    public static ModelProto decoder(Seq2SeqWeights weights, Input input, Graph graph, String description) {
        boolean withPast = graph != Graph.FIRST;
        boolean merged = graph == Graph.MERGED;
        DecoderConfig c = weights.config();
        DecoderWeights w = weights.decoder();
        int h = c.hidden();
        OnnxGraphBuilder g = new OnnxGraphBuilder("inferbench_decoder");
        g.input("input_ids", TensorProto.DataType.INT64, "batch_size", "decoder_sequence_length");
        if (input == Input.TEXT) {
            g.input("encoder_attention_mask", TensorProto.DataType.INT64, "batch_size", "encoder_sequence_length");
        }
        if (graph != Graph.WITH_PAST) {
            g.input("encoder_hidden_states", TensorProto.DataType.FLOAT, "batch_size", "encoder_sequence_length", h);
        }
        if (withPast) {
            for (int i = 0; i < c.layers(); i++) {
                for (String part : new String[] {"decoder.key", "decoder.value"}) {
                    g.input("past_key_values." + i + "." + part, TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                            "past_decoder_sequence_length", c.headDim());
                }
                for (String part : new String[] {"encoder.key", "encoder.value"}) {
                    g.input("past_key_values." + i + "." + part, TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                            "encoder_sequence_length_out", c.headDim());
                }
            }
        }
        if (merged) {
            g.input(OnnxDecoderExporter.USE_CACHE_BRANCH, TensorProto.DataType.BOOL, 1);
        }
        g.output("logits", TensorProto.DataType.FLOAT, "batch_size", c.vocabSize());
        for (int i = 0; i < c.layers(); i++) {
            g.output("present." + i + ".decoder.key", TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                    "past_decoder_sequence_length + 1", c.headDim());
            g.output("present." + i + ".decoder.value", TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                    "past_decoder_sequence_length + 1", c.headDim());
            if (graph != Graph.WITH_PAST) {
                g.output("present." + i + ".encoder.key", TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                        "encoder_sequence_length_out", c.headDim());
                g.output("present." + i + ".encoder.value", TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                        "encoder_sequence_length_out", c.headDim());
            }
        }
        Shapes s = new Shapes(g, c);
        String unit = g.int64Scalar("unit", 1);
        String zero = g.int64Scalar("zero", 0);
        String two = g.int64Scalar("two", 2);
        if (merged) {
            branches(g, weights, s);
        }
        String past = withPast ? g.node("Gather", new String[] {g.node("Shape", merged ? "self_in.0.key"
                : "past_key_values.0.decoder.key"), two}, intAttribute("axis", 0)) : zero;
        String seq = g.node("Gather", new String[] {g.node("Shape", "input_ids"), unit}, intAttribute("axis", 0));
        String total = g.node("Add", past, seq);
        String queryPositions = g.node("Range", past, total, unit);
        String future = g.node("Greater", g.node("Unsqueeze", g.node("Range", zero, total, unit), g.int64Initializer("axes_0", 0)),
                g.node("Unsqueeze", queryPositions, g.int64Initializer("axes_1", 1)));
        String sourceBlocked = input == Input.TEXT ? g.node("Unsqueeze", g.node("Equal", "encoder_attention_mask", zero),
                g.int64Initializer("axes_1_2", 1, 2)) : null;
        String x = g.node("Add", g.node("Gather", g.floatInitializer("token_embedding", w.tokenEmbedding(), c.vocabSize(), h),
                "input_ids"), g.node("Gather", g.floatInitializer("position_embedding", w.positionEmbedding(), c.maxPositions(), h),
                queryPositions));
        for (int i = 0; i < c.layers(); i++) {
            DecoderWeights.Layer l = w.layers().get(i);
            DecoderWeights.Layer cl = weights.cross().layers().get(i);
            String p = "decoder.layer" + i + ".";
            String[] qkv = s.selfAttention(x, l, p);
            String q = qkv[0];
            String k = qkv[1];
            String v = qkv[2];
            String keys = "present." + i + ".decoder.key";
            String values = "present." + i + ".decoder.value";
            if (withPast) {
                String pastKeys = merged ? "self_in." + i + ".key" : "past_key_values." + i + ".decoder.key";
                String pastValues = merged ? "self_in." + i + ".value" : "past_key_values." + i + ".decoder.value";
                g.nodeWithOutput("Concat", new String[] {pastKeys, k}, keys, intAttribute("axis", 2));
                g.nodeWithOutput("Concat", new String[] {pastValues, v}, values, intAttribute("axis", 2));
            } else {
                g.nodeWithOutput("Identity", new String[] {k}, keys);
                g.nodeWithOutput("Identity", new String[] {v}, values);
            }
            x = g.node("Add", x, OnnxDecoderExporter.linear(g, s.attend(q, keys, values, future), p + "wo",
                    l.attention().wo(), h, h,
                    p + "bo", l.attention().bo()));
            String cp = "decoder.layer" + i + ".cross.";
            String ca = OnnxDecoderExporter.layerNorm(g, x, c, g.floatInitializer(cp + "ln.gamma", cl.ln1().gamma(), h),
                    g.floatInitializer(cp + "ln.beta", cl.ln1().beta(), h));
            String cq = s.heads(OnnxDecoderExporter.linear(g, ca, cp + "wq", cl.attention().wq(), h, h, cp + "bq",
                    cl.attention().bq()));
            String crossKeys = withPast && !merged ? "past_key_values." + i + ".encoder.key" : "present." + i + ".encoder.key";
            String crossValues = withPast && !merged ? "past_key_values." + i + ".encoder.value" : "present." + i + ".encoder.value";
            if (merged) {
                g.nodeWithOutput("Identity", new String[] {"cross_in." + i + ".key"}, crossKeys);
                g.nodeWithOutput("Identity", new String[] {"cross_in." + i + ".value"}, crossValues);
            } else if (!withPast) {
                g.nodeWithOutput("Identity", new String[] {s.heads(OnnxDecoderExporter.linear(g, "encoder_hidden_states",
                        cp + "wk", cl.attention().wk(), h, h, cp + "bk", cl.attention().bk()))}, crossKeys);
                g.nodeWithOutput("Identity", new String[] {s.heads(OnnxDecoderExporter.linear(g, "encoder_hidden_states",
                        cp + "wv", cl.attention().wv(), h, h, cp + "bv", cl.attention().bv()))}, crossValues);
            }
            x = g.node("Add", x, OnnxDecoderExporter.linear(g, s.attend(cq, crossKeys, crossValues, sourceBlocked), cp + "wo",
                    cl.attention().wo(), h, h, cp + "bo", cl.attention().bo()));
            x = feedForward(g, x, c, l, p);
        }
        String last = g.node("Gather", new String[] {x, g.node("Sub", seq, unit)}, intAttribute("axis", 1));
        String normed = OnnxDecoderExporter.layerNorm(g, last, c, g.floatInitializer("final.gamma", w.finalGamma(), h),
                g.floatInitializer("final.beta", w.finalBeta(), h));
        g.nodeWithOutput("MatMul", new String[] {normed, g.floatInitializer("head", w.head(), h, c.vocabSize())}, "logits");
        return g.build("seq2seq-" + GENERATOR_VERSION, description);
    }

    /**
     * The merged decoder's {@code If} on {@code use_cache_branch}: {@code self_in.N.*} and {@code cross_in.N.*} are the
     * cache inputs when true; when false, zero-length self caches and the cross-attention caches computed from
     * {@code encoder_hidden_states} (their weights are the main graph's, read from the branch).
     */
    private static void branches(OnnxGraphBuilder g, Seq2SeqWeights weights, Shapes s) {
        DecoderConfig c = weights.config();
        int h = c.hidden();
        OnnxGraphBuilder withCache = new OnnxGraphBuilder("use_cache", "with_cache_");
        OnnxGraphBuilder withoutCache = new OnnxGraphBuilder("no_cache", "no_cache_");
        String start = withoutCache.int64Initializer("no_cache_start", 0);
        String axis = withoutCache.int64Initializer("no_cache_axis", 2);
        java.util.List<String> outputs = new java.util.ArrayList<>();
        for (int i = 0; i < c.layers(); i++) {
            for (String part : new String[] {"key", "value"}) {
                String past = "past_key_values." + i + ".decoder." + part;
                withCache.output(withCache.node("Identity", past), TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                        "past_decoder_sequence_length", c.headDim());
                withoutCache.output(withoutCache.node("Slice", past, start, start, axis), TensorProto.DataType.FLOAT,
                        "batch_size", c.heads(), 0, c.headDim());
                outputs.add("self_in." + i + "." + part);
            }
        }
        for (int i = 0; i < c.layers(); i++) {
            DecoderWeights.Layer cl = weights.cross().layers().get(i);
            String cp = "decoder.layer" + i + ".cross.";
            for (String part : new String[] {"key", "value"}) {
                boolean key = part.equals("key");
                withCache.output(withCache.node("Identity", "past_key_values." + i + ".encoder." + part),
                        TensorProto.DataType.FLOAT, "batch_size", c.heads(), "encoder_sequence_length_out", c.headDim());
                String weight = g.floatInitializer(cp + (key ? "wk" : "wv"),
                        key ? cl.attention().wk() : cl.attention().wv(), h, h);
                String bias = g.floatInitializer(cp + (key ? "bk" : "bv"),
                        key ? cl.attention().bk() : cl.attention().bv(), h);
                String projected = withoutCache.node("Add", withoutCache.node("MatMul", "encoder_hidden_states", weight), bias);
                withoutCache.output(withoutCache.node("Transpose", new String[] {withoutCache.node("Reshape", projected,
                        s.headsShape)}, intsAttribute("perm", 0, 2, 1, 3)), TensorProto.DataType.FLOAT, "batch_size", c.heads(),
                        "encoder_sequence_length_out", c.headDim());
                outputs.add("cross_in." + i + "." + part);
            }
        }
        g.ifNode(OnnxDecoderExporter.USE_CACHE_BRANCH, withCache, withoutCache, outputs.toArray(String[]::new));
    }

    private static String feedForward(OnnxGraphBuilder g, String x, DecoderConfig c, DecoderWeights.Layer l, String p) {
        int h = c.hidden();
        int f = c.ffnHidden();
        String m = OnnxDecoderExporter.layerNorm(g, x, c, g.floatInitializer(p + "ln2.gamma", l.ln2().gamma(), h),
                g.floatInitializer(p + "ln2.beta", l.ln2().beta(), h));
        String up = OnnxDecoderExporter.linear(g, m, p + "w1", l.ffn().w1(), h, f, p + "b1", l.ffn().b1());
        String gelu = g.node("Mul", g.node("Mul", up, g.floatScalar(p + "half", 0.5f)), g.node("Add", g.node("Erf",
                g.node("Div", up, g.floatScalar(p + "sqrt2", (float) Math.sqrt(2.0)))), g.floatScalar(p + "one", 1.0f)));
        return g.node("Add", x, OnnxDecoderExporter.linear(g, gelu, p + "w2", l.ffn().w2(), f, h, p + "b2",
                l.ffn().b2()));
    }

    /** Multi-head attention's shapes and products, shared by every layer of a graph. */
    private static final class Shapes {
        private final OnnxGraphBuilder g;
        private final DecoderConfig c;
        private final String headsShape;
        private final String hiddenShape;
        private final String scale;
        private final String masked;

        Shapes(OnnxGraphBuilder g, DecoderConfig c) {
            this.g = g;
            this.c = c;
            this.headsShape = g.int64Initializer("shape_heads", 0, 0, c.heads(), c.headDim());
            this.hiddenShape = g.int64Initializer("shape_hidden", 0, 0, c.hidden());
            this.scale = g.floatScalar("attention_scale", (float) (1.0 / Math.sqrt(c.headDim())));
            this.masked = g.floatScalar("masked_score", -1e9f);
        }

        /** The layer's LayerNorm of {@code x}, then its query, key and value projections, each split into heads. */
        String[] selfAttention(String x, DecoderWeights.Layer l, String p) {
            int h = c.hidden();
            String a = OnnxDecoderExporter.layerNorm(g, x, c, g.floatInitializer(p + "ln1.gamma", l.ln1().gamma(), h),
                    g.floatInitializer(p + "ln1.beta", l.ln1().beta(), h));
            return new String[] {heads(OnnxDecoderExporter.linear(g, a, p + "wq", l.attention().wq(), h, h, p + "bq",
                    l.attention().bq())),
                    heads(OnnxDecoderExporter.linear(g, a, p + "wk", l.attention().wk(), h, h, p + "bk",
                            l.attention().bk())),
                    heads(OnnxDecoderExporter.linear(g, a, p + "wv", l.attention().wv(), h, h, p + "bv",
                            l.attention().bv()))};
        }

        /** {@code [batch, seq, hidden]} to {@code [batch, heads, seq, headDim]}. */
        String heads(String x) {
            return g.node("Transpose", new String[] {g.node("Reshape", x, headsShape)}, intsAttribute("perm", 0, 2, 1, 3));
        }

        /** softmax(q·kᵀ·scale, blocked keys at -1e9)·v, back to {@code [batch, seq, hidden]}; {@code blocked} may be null. */
        String attend(String q, String k, String v, String blocked) {
            String kt = g.node("Transpose", new String[] {k}, intsAttribute("perm", 0, 1, 3, 2));
            String scores = g.node("Mul", g.node("MatMul", q, kt), scale);
            if (blocked != null) {
                scores = g.node("Where", blocked, masked, scores);
            }
            String probs = g.node("Softmax", new String[] {scores}, intAttribute("axis", -1));
            return g.node("Reshape", g.node("Transpose", new String[] {g.node("MatMul", probs, v)},
                    intsAttribute("perm", 0, 2, 1, 3)), hiddenShape);
        }
    }
}
