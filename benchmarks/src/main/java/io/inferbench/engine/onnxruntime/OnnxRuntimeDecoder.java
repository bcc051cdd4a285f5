package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.inputs.CacheInput;
import io.inferbench.inputs.DecoderLayout;
import io.inferbench.inputs.DecoderPlanner;
import io.inferbench.inputs.Dim;
import io.inferbench.inputs.ElementType;
import io.inferbench.inputs.KvPair;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A decoder on ONNX Runtime. Each pass is one {@code OrtSession.run}: synchronized, its outputs copied to host memory.
 *
 * <p><b>The cache hand-off.</b> A step's present outputs are handed to the next step as its past inputs as they are:
 * the Java API has no IOBinding, so they are host tensors. On the CPU nothing is copied. On CUDA every step copies the
 * whole cache device → host when it returns and host → device when the next one starts; those copies fall inside the
 * timed {@code run}, and {@link #handOff} measures only the Java side (the small new inputs, the map).
 */
final class OnnxRuntimeDecoder implements DecoderSession {
    private final OrtEnvironment env;
    private final OrtSession.SessionOptions options;
    private final OrtSession session;
    private final String provider;
    private final DecoderLayout layout;
    private final int logitsRank;
    private final SessionSpec spec;

    private final Map<String, OnnxTensor> inputs = new LinkedHashMap<>();
    private final List<OnnxTensor> owned = new ArrayList<>();
    private OrtSession.Result current;
    private OrtSession.Result previous;
    private int batch;
    private long position;
    private float[] logits;
    private boolean closed;

    private OnnxRuntimeDecoder(OrtEnvironment env, OrtSession.SessionOptions options, OrtSession session, String provider,
                               DecoderLayout layout, int logitsRank, SessionSpec spec) {
        this.env = env;
        this.options = options;
        this.session = session;
        this.provider = provider;
        this.layout = layout;
        this.logitsRank = logitsRank;
        this.spec = spec;
    }

    static OnnxRuntimeDecoder open(SessionSpec spec, List<KvPair> pairs) {
        OrtEnvironment env = OnnxRuntimeEngine.environment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        OrtSession session = null;
        try {
            String provider = OnnxRuntimeEngine.configure(options, spec);
            session = OnnxRuntimeEngine.createSession(env, options, spec);
            Map<String, List<Dim>> outputs = new LinkedHashMap<>();
            for (Map.Entry<String, NodeInfo> output : session.getOutputInfo().entrySet()) {
                outputs.put(output.getKey(), output.getValue().getInfo() instanceof TensorInfo t ? OnnxRuntimeSession.dims(t) : List.of());
            }
            DecoderLayout layout = DecoderPlanner.plan(spec.source().name(),
                    OnnxRuntimeSession.declaredInputs(session.getInputInfo()), outputs, pairs, spec.inputs().dims());
            return new OnnxRuntimeDecoder(env, options, session, provider, layout, outputs.get(layout.logits()).size(), spec);
        } catch (OrtException | RuntimeException e) {
            try {
                if (session != null) {
                    session.close();
                }
            } catch (OrtException ignored) {
                // the first error is the one to report
            }
            options.close();
            throw e instanceof BenchmarkException be ? be
                    : new BenchmarkException("Could not read the decoder's inputs and outputs: " + e.getMessage(), e);
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
        return new SessionFacts(provider, spec.intraOpThreads(), spec.interOpThreads(), engineVersion,
                OnnxRuntimeEngine.cudaBuild() ? "gpu build (onnxruntime_gpu)" : "cpu build (onnxruntime)", spec.device().toString(),
                "every output of a pass returned as host tensors (no IOBinding); the pick reads the last position's logits, "
                        + "the present cache is handed to the next step as it is");
    }

    @Override
    public void prepare(long[] promptIds, int batch, int promptLength) {
        finish();
        this.batch = batch;
        this.position = promptLength;
        long[] positions = DecoderSession.promptPositions(batch, promptLength);
        setTokens(promptIds, positions, promptLength);
        for (CacheInput cache : layout.cache()) {
            inputs.put(cache.past(), tensor(ByteBuffer.allocateDirect(0), cache.shape(batch, 0), onnx(cache.type())));
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
        try {
            previous = current;
            current = session.run(inputs);
            OnnxTensor out = (OnnxTensor) current.get(layout.logits()).orElseThrow();
            FloatBuffer values = out.getFloatBuffer();
            if (logits == null || logits.length != values.remaining()) {
                logits = new float[values.remaining()];
            }
            values.get(logits);
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime failed a generation pass at batch " + batch + ", position " + position
                    + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void pick(long[] tokens) {
        int vocab = logitsRank == 2 ? logits.length / batch : (int) ((OnnxTensor) current.get(layout.logits()).orElseThrow())
                .getInfo().getShape()[2];
        DecoderSession.greedy(logits, batch, vocab, tokens);
    }

    @Override
    public void handOff(long[] tokens) {
        closeOwned();
        if (previous != null) {
            previous.close();
            previous = null;
        }
        long[] positions = new long[batch];
        java.util.Arrays.fill(positions, position);
        position++;
        setTokens(tokens, positions, 1);
        for (CacheInput cache : layout.cache()) {
            inputs.put(cache.past(), (OnnxTensor) current.get(cache.present()).orElseThrow());
        }
    }

    private void setTokens(long[] ids, long[] positions, int length) {
        inputs.clear();
        long[] shape = {batch, length};
        inputs.put(layout.inputIds(), ids(ids, shape));
        if (layout.positionIds() != null) {
            inputs.put(layout.positionIds(), ids(positions, shape));
        }
        if (layout.attentionMask() != null) {
            long[] ones = new long[(int) (batch * position)];
            java.util.Arrays.fill(ones, 1);
            inputs.put(layout.attentionMask(), ids(ones, new long[] {batch, position}));
        }
    }

    /** An int64 or int32 tensor (as the ids input is typed) in a direct buffer of native order. */
    private OnnxTensor ids(long[] values, long[] shape) {
        boolean int32 = layout.idsType() == ElementType.INT32;
        ByteBuffer buffer = ByteBuffer.allocateDirect(values.length * (int32 ? 4 : 8)).order(ByteOrder.nativeOrder());
        for (long v : values) {
            if (int32) {
                buffer.putInt((int) v);
            } else {
                buffer.putLong(v);
            }
        }
        buffer.rewind();
        return tensor(buffer, shape, int32 ? OnnxJavaType.INT32 : OnnxJavaType.INT64);
    }

    private OnnxTensor tensor(ByteBuffer buffer, long[] shape, OnnxJavaType type) {
        try {
            OnnxTensor tensor = OnnxTensor.createTensor(env, buffer, shape, type);
            owned.add(tensor);
            return tensor;
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime could not make a generation input of shape "
                    + java.util.Arrays.toString(shape) + ": " + e.getMessage(), e);
        }
    }

    private static OnnxJavaType onnx(ElementType type) {
        return type == ElementType.FLOAT16 ? OnnxJavaType.FLOAT16 : OnnxJavaType.FLOAT;
    }

    @Override
    public long cacheBytes() {
        long bytes = 0;
        for (CacheInput cache : layout.cache()) {
            OnnxValue value = current.get(cache.present()).orElseThrow();
            long elements = 1;
            for (long size : ((TensorInfo) value.getInfo()).getShape()) {
                elements *= size;
            }
            bytes += elements * cache.type().bytes();
        }
        return bytes;
    }

    @Override
    public void finish() {
        closeOwned();
        inputs.clear();
        if (previous != null) {
            previous.close();
            previous = null;
        }
        if (current != null) {
            current.close();
            current = null;
        }
    }

    private void closeOwned() {
        owned.forEach(OnnxTensor::close);
        owned.clear();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        finish();
        try {
            session.close();
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime failed to close a decoder session: " + e.getMessage(), e);
        } finally {
            options.close();
        }
    }
}
