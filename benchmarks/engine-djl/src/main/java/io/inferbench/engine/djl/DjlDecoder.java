package io.inferbench.engine.djl;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.ParameterStore;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.inputs.CacheInput;
import io.inferbench.inputs.DecoderLayout;
import io.inferbench.inputs.ElementType;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderNames;
import io.inferbench.model.DecoderPreset;
import io.inferbench.model.DecoderWeights;

import java.util.ArrayList;
import java.util.List;

/**
 * A built-in decoder on DJL's PyTorch engine ({@link DjlDecoderBlock}).
 *
 * <p><b>Synchronized.</b> A pass ends by copying its logits to host memory, which waits for everything queued on the
 * device before it.
 *
 * <p><b>The cache hand-off.</b> A step's present keys and values are handed to the next step as they are, on the device:
 * PyTorch needs no host round trip. Each step's arrays live in a manager of their own; once the next step's inputs are
 * made, the cache is moved to that step's manager and the step before is freed, so at most two steps' arrays are alive.
 */
final class DjlDecoder implements DecoderSession {
    private final NDManager root;
    private final DjlDecoderBlock block;
    private final ParameterStore parameters = new ParameterStore();
    private final DecoderConfig config;
    private final DecoderLayout layout;
    private final String provider;
    private final SessionSpec spec;

    private NDManager generation;
    private NDManager stepManager;
    private NDList inputs;
    private NDList outputs;
    private float[] logits;
    private int batch;
    private long position;
    private boolean closed;

    private DjlDecoder(NDManager root, DjlDecoderBlock block, DecoderConfig config, String provider, SessionSpec spec) {
        this.root = root;
        this.spec = spec;
        this.block = block;
        this.config = config;
        this.provider = provider;
        DecoderNames names = DecoderNames.HUGGING_FACE;
        List<CacheInput> cache = new ArrayList<>();
        List<Long> sizes = List.of(-1L, (long) config.heads(), -1L, (long) config.headDim());
        for (int i = 0; i < config.layers(); i++) {
            cache.add(new CacheInput(names.pastKey(i), names.presentKey(i), ElementType.FLOAT32, sizes, 2));
            cache.add(new CacheInput(names.pastValue(i), names.presentValue(i), ElementType.FLOAT32, sizes, 2));
        }
        this.layout = new DecoderLayout(names.inputIds(), ElementType.INT64, names.positionIds(), null, names.logits(), cache);
    }

    static DjlDecoder open(Engine engine, SessionSpec spec, DecoderPreset preset) {
        ai.djl.Device device = spec.device().isCuda() ? ai.djl.Device.gpu(spec.device().index()) : ai.djl.Device.cpu();
        DjlPyTorchSession.setThreads(spec);
        JniUtils.setGradMode(false);
        NDManager root = engine.newBaseManager(device);
        try {
            DjlDecoderBlock block = new DjlDecoderBlock(DecoderWeights.generate(preset.config(), spec.seed()), root);
            return new DjlDecoder(root, block, preset.config(), "PyTorch " + engine.getVersion() + " on " + device, spec);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    @Override
    public DecoderLayout layout() {
        return layout;
    }

    @Override
    public String provider() {
        return provider;
    }

    @Override
    public SessionFacts facts(String engineVersion) {
        return new SessionFacts(provider, spec.intraOpThreads(), spec.interOpThreads(), engineVersion, DjlPyTorchEngine.flavor(),
                root.getDevice().toString(), "the logits copied to the host for the pick (the device sync point); the cache "
                        + "kept on the device between steps");
    }

    @Override
    public void prepare(long[] promptIds, int batch, int promptLength) {
        finish();
        this.batch = batch;
        this.position = promptLength;
        generation = root.newSubManager();
        stepManager = generation.newSubManager();
        long[] positions = DecoderSession.promptPositions(batch, promptLength);
        inputs = new NDList(stepManager.create(promptIds, new Shape(batch, promptLength)),
                stepManager.create(positions, new Shape(batch, promptLength)));
        Shape empty = new Shape(batch, config.heads(), 0, config.headDim());
        for (int i = 0; i < 2 * config.layers(); i++) {
            inputs.add(stepManager.zeros(empty));
        }
    }

    @Override
    public void prefill() {
        run();
    }

    @Override
    public void step() {
        run();
    }

    private void run() {
        outputs = block.forward(parameters, inputs, false);
        logits = outputs.get(0).toFloatArray();
    }

    @Override
    public float[] logits() {
        return logits;
    }

    @Override
    public int vocab() {
        return logits.length / batch;
    }

    @Override
    public void handOff(long[] tokens) {
        NDManager next = generation.newSubManager();
        long[] positions = new long[batch];
        java.util.Arrays.fill(positions, position);
        position++;
        NDList nextInputs = new NDList(next.create(tokens, new Shape(batch, 1)), next.create(positions, new Shape(batch, 1)));
        for (int i = 1; i < outputs.size(); i++) {
            NDArray cache = outputs.get(i);
            cache.attach(next);
            nextInputs.add(cache);
        }
        stepManager.close();
        stepManager = next;
        inputs = nextInputs;
    }

    @Override
    public long cacheBytes() {
        long bytes = 0;
        for (int i = 1; i < outputs.size(); i++) {
            bytes += outputs.get(i).getShape().size() * outputs.get(i).getDataType().getNumOfBytes();
        }
        return bytes;
    }

    @Override
    public void finish() {
        if (generation != null) {
            generation.close();
            generation = null;
            stepManager = null;
            inputs = null;
            outputs = null;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        finish();
        root.close();
    }
}
