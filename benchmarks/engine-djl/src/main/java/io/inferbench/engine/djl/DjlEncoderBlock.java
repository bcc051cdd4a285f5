package io.inferbench.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.inferbench.model.EncoderConfig;
import io.inferbench.model.EncoderWeights;

import java.util.ArrayList;
import java.util.List;

/**
 * The built-in encoder as a DJL block, computing exactly what {@link io.inferbench.model.OnnxEncoderExporter}'s
 * graph computes, with the same {@link EncoderWeights}: {@code x · W + b} with W {@code [in, out]}, post-LN layers,
 * exact GELU via erf, mean pooling, linear head.
 *
 * <p>It runs op by op through JNI (no graph compiler), so per-op dispatch shows at small shapes. Weights are
 * constants held by the manager given at construction; every intermediate is created in the manager of the input
 * (each pass's own sub-manager, see {@link DjlPyTorchSession}), so nothing accumulates across passes.
 */
final class DjlEncoderBlock extends AbstractBlock {
    private final EncoderConfig config;
    private final NDArray embedding;
    private final List<NDArray[]> layers = new ArrayList<>();
    private final NDArray headWeight;
    private final NDArray headBias;

    DjlEncoderBlock(EncoderWeights weights, NDManager manager) {
        this.config = weights.config();
        int h = config.hidden();
        int f = config.ffnHidden();
        embedding = manager.create(weights.tokenEmbedding(), new Shape(config.vocabSize(), h));
        for (EncoderWeights.Layer l : weights.layers()) {
            layers.add(new NDArray[] {
                manager.create(l.attention().wq(), new Shape(h, h)), manager.create(l.attention().bq()),
                manager.create(l.attention().wk(), new Shape(h, h)), manager.create(l.attention().bk()),
                manager.create(l.attention().wv(), new Shape(h, h)), manager.create(l.attention().bv()),
                manager.create(l.attention().wo(), new Shape(h, h)), manager.create(l.attention().bo()),
                manager.create(l.ln1().gamma()), manager.create(l.ln1().beta()),
                manager.create(l.ffn().w1(), new Shape(h, f)), manager.create(l.ffn().b1()),
                manager.create(l.ffn().w2(), new Shape(f, h)), manager.create(l.ffn().b2()),
                manager.create(l.ln2().gamma()), manager.create(l.ln2().beta())});
        }
        headWeight = manager.create(weights.headWeight(), new Shape(h, config.numLabels()));
        headBias = manager.create(weights.headBias());
    }

    @Override
    protected NDList forwardInternal(ParameterStore parameterStore, NDList inputs, boolean training,
                                     PairList<String, Object> params) {
        NDArray ids = inputs.head();
        long batch = ids.getShape().get(0);
        long seq = ids.getShape().get(1);
        int heads = config.heads();
        int headDim = config.headDim();
        int h = config.hidden();
        float scale = (float) (1.0 / Math.sqrt(headDim));
        NDArray x = embedding.get(new NDIndex("{}", ids));
        // Gather on the embedding lands in the embedding's manager: move it to the pass's.
        x.attach(ids.getManager());
        Shape normalized = new Shape(h);
        for (NDArray[] w : layers) {
            NDArray q = x.matMul(w[0]).add(w[1]).reshape(batch, seq, heads, headDim).transpose(0, 2, 1, 3);
            NDArray kt = x.matMul(w[2]).add(w[3]).reshape(batch, seq, heads, headDim).transpose(0, 2, 3, 1);
            NDArray v = x.matMul(w[4]).add(w[5]).reshape(batch, seq, heads, headDim).transpose(0, 2, 1, 3);
            NDArray probs = q.matMul(kt).mul(scale).softmax(-1);
            NDArray context = probs.matMul(v).transpose(0, 2, 1, 3).reshape(batch, seq, h);
            NDArray attention = context.matMul(w[6]).add(w[7]);
            NDArray x1 = LayerNorm.layerNorm(x.add(attention), normalized, w[8], w[9], config.layerNormEpsilon()).head();
            NDArray up = x1.matMul(w[10]).add(w[11]);
            NDArray gelu = up.mul(0.5f).mul(up.div((float) Math.sqrt(2.0)).erf().add(1f));
            NDArray down = gelu.matMul(w[12]).add(w[13]);
            x = LayerNorm.layerNorm(x1.add(down), normalized, w[14], w[15], config.layerNormEpsilon()).head();
        }
        NDArray pooled = x.mean(new int[] {1});
        return new NDList(pooled.matMul(headWeight).add(headBias));
    }

    @Override
    public Shape[] getOutputShapes(Shape[] inputShapes) {
        return new Shape[] {new Shape(inputShapes[0].get(0), config.numLabels())};
    }
}
