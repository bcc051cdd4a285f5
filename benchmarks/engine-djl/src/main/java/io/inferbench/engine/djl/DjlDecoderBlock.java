package io.inferbench.engine.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderWeights;

import java.util.ArrayList;
import java.util.List;

/**
 * A built-in decoder as a DJL block, computing what {@link io.inferbench.model.OnnxDecoderExporter}'s graph computes with
 * the same {@link DecoderWeights}. Inputs: ids and positions {@code [batch, seq]}, then per layer the past key and value
 * {@code [batch, heads, past, headDim]}; outputs: the last position's logits {@code [batch, vocab]}, then per layer the
 * present key and value (the past with this pass's appended).
 *
 * <p>Weights are held by the manager given at construction; every intermediate lands in the manager of the inputs (the
 * step's own, see {@link DjlDecoder}).
 */
final class DjlDecoderBlock extends AbstractBlock {
    private final DecoderConfig config;
    private final NDArray tokens;
    private final NDArray positions;
    private final List<NDArray[]> layers = new ArrayList<>();
    private final NDArray finalGamma;
    private final NDArray finalBeta;
    private final NDArray head;

    DjlDecoderBlock(DecoderWeights weights, NDManager manager) {
        this.config = weights.config();
        int h = config.hidden();
        int f = config.ffnHidden();
        tokens = manager.create(weights.tokenEmbedding(), new Shape(config.vocabSize(), h));
        positions = manager.create(weights.positionEmbedding(), new Shape(config.maxPositions(), h));
        for (DecoderWeights.Layer l : weights.layers()) {
            layers.add(new NDArray[] {
                manager.create(l.ln1().gamma()), manager.create(l.ln1().beta()),
                manager.create(l.attention().wq(), new Shape(h, h)), manager.create(l.attention().bq()),
                manager.create(l.attention().wk(), new Shape(h, h)), manager.create(l.attention().bk()),
                manager.create(l.attention().wv(), new Shape(h, h)), manager.create(l.attention().bv()),
                manager.create(l.attention().wo(), new Shape(h, h)), manager.create(l.attention().bo()),
                manager.create(l.ln2().gamma()), manager.create(l.ln2().beta()),
                manager.create(l.ffn().w1(), new Shape(h, f)), manager.create(l.ffn().b1()),
                manager.create(l.ffn().w2(), new Shape(f, h)), manager.create(l.ffn().b2())});
        }
        finalGamma = manager.create(weights.finalGamma());
        finalBeta = manager.create(weights.finalBeta());
        head = manager.create(weights.head(), new Shape(h, config.vocabSize()));
    }

    @Override
    protected NDList forwardInternal(ParameterStore parameterStore, NDList inputs, boolean training,
                                     PairList<String, Object> params) {
        NDArray ids = inputs.get(0);
        NDManager manager = ids.getManager();
        long batch = ids.getShape().get(0);
        long seq = ids.getShape().get(1);
        long past = inputs.get(2).getShape().get(2);
        int heads = config.heads();
        int headDim = config.headDim();
        int h = config.hidden();
        float scale = (float) (1.0 / Math.sqrt(headDim));
        NDArray tokenRows = tokens.get(new NDIndex("{}", ids));
        NDArray positionRows = positions.get(new NDIndex("{}", inputs.get(1)));
        // Gathers land in the tables' manager: move them to the step's.
        tokenRows.attach(manager);
        positionRows.attach(manager);
        NDArray x = tokenRows.add(positionRows);
        NDArray mask = null;
        if (seq > 1) {
            NDArray keyPositions = manager.arange(0, (int) (past + seq)).reshape(1, past + seq);
            NDArray queryPositions = manager.arange((int) past, (int) (past + seq)).reshape(seq, 1);
            mask = keyPositions.gt(queryPositions).toType(DataType.FLOAT32, false).mul(-1e9f);
        }
        Shape normalized = new Shape(h);
        NDList outputs = new NDList();
        NDList presents = new NDList();
        for (int i = 0; i < layers.size(); i++) {
            NDArray[] w = layers.get(i);
            NDArray a = LayerNorm.layerNorm(x, normalized, w[0], w[1], config.layerNormEpsilon()).head();
            NDArray q = a.matMul(w[2]).add(w[3]).reshape(batch, seq, heads, headDim).transpose(0, 2, 1, 3);
            NDArray k = a.matMul(w[4]).add(w[5]).reshape(batch, seq, heads, headDim).transpose(0, 2, 1, 3);
            NDArray v = a.matMul(w[6]).add(w[7]).reshape(batch, seq, heads, headDim).transpose(0, 2, 1, 3);
            NDArray keys = inputs.get(2 + 2 * i).concat(k, 2);
            NDArray values = inputs.get(3 + 2 * i).concat(v, 2);
            keys.attach(manager);
            values.attach(manager);
            presents.add(keys);
            presents.add(values);
            NDArray scores = q.matMul(keys.transpose(0, 1, 3, 2)).mul(scale);
            if (mask != null) {
                scores = scores.add(mask);
            }
            NDArray context = scores.softmax(-1).matMul(values).transpose(0, 2, 1, 3).reshape(batch, seq, h);
            x = x.add(context.matMul(w[8]).add(w[9]));
            NDArray m = LayerNorm.layerNorm(x, normalized, w[10], w[11], config.layerNormEpsilon()).head();
            NDArray up = m.matMul(w[12]).add(w[13]);
            NDArray gelu = up.mul(0.5f).mul(up.div((float) Math.sqrt(2.0)).erf().add(1f));
            x = x.add(gelu.matMul(w[14]).add(w[15]));
        }
        NDArray last = x.get(new NDIndex(":, -1, :"));
        NDArray normed = LayerNorm.layerNorm(last, normalized, finalGamma, finalBeta, config.layerNormEpsilon()).head();
        outputs.add(normed.matMul(head));
        outputs.addAll(presents);
        return outputs;
    }

    @Override
    public Shape[] getOutputShapes(Shape[] inputShapes) {
        return new Shape[] {new Shape(inputShapes[0].get(0), config.vocabSize())};
    }
}
