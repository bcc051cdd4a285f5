package io.inferbench.engine.onnxruntime;

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
import io.inferbench.inputs.ElementType;
import io.inferbench.inputs.KvPair;
import io.inferbench.model.ExportFolder;

import java.nio.ByteBuffer;
import java.nio.file.Path;
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
 *
 * <p><b>Export folders.</b> A merged export runs in one session, fed {@code use_cache_branch} false on the prefill (with
 * zero-length caches) and true on each step. A split export opens two sessions before anything is timed: the prefill runs
 * {@code decoder_model.onnx}, whose present outputs become the first step's cache inputs of
 * {@code decoder_with_past_model.onnx}. A {@code config.json} is checked against the graphs when the decoder opens, and
 * its vocabulary against the first pass's logits.
 */
final class OnnxRuntimeDecoder implements DecoderSession {
    private final OrtEnvironment env;
    private final OrtSession.SessionOptions options;
    private final OrtSession session;
    private final OrtSession prefillSession;
    private final String provider;
    private final DecoderLayout layout;
    private final DecoderLayout prefillLayout;
    private final int logitsRank;
    private final SessionSpec spec;
    private final ExportFolder export;
    private final OnnxTensor branchOff;
    private final OnnxTensor branchOn;
    private boolean vocabChecked;

    private final Map<String, OnnxTensor> inputs = new LinkedHashMap<>();
    private final List<OnnxTensor> owned = new ArrayList<>();
    private OrtSession.Result current;
    private OrtSession.Result previous;
    /** The first decoder pass's outputs, kept for the whole generation where the steps read its cross-attention caches. */
    private OrtSession.Result firstPass;
    private final OnnxRuntimeEncoder encoder;
    private int batch;
    private long position;
    private float[] logits;
    private int vocab;
    private long sourceLength;
    /** The encoder's output of this generation: the first pass's {@code encoder_hidden_states}, and a merged graph's every step's. */
    private OnnxTensor encoderStates;
    private boolean closed;

    OnnxRuntimeDecoder(OrtEnvironment env, OrtSession.SessionOptions options, DecoderSessions sessions, String provider,
                               DecoderLayout layout, DecoderLayout prefillLayout, int logitsRank, SessionSpec spec,
                               ExportFolder export) throws OrtException {
        this.encoder = sessions.encoder == null ? null : new OnnxRuntimeEncoder(env, sessions.encoder, spec, export);
        this.env = env;
        this.options = options;
        this.session = sessions.steps;
        this.prefillSession = sessions.prefill == null ? sessions.steps : sessions.prefill;
        this.provider = provider;
        this.layout = layout;
        this.prefillLayout = prefillLayout;
        this.logitsRank = logitsRank;
        this.spec = spec;
        this.export = export;
        this.branchOff = layout.branchFlag() == null ? null : OnnxTensor.createTensor(env, new boolean[] {false});
        this.branchOn = layout.branchFlag() == null ? null : OnnxTensor.createTensor(env, new boolean[] {true});
    }

    static OnnxRuntimeDecoder open(SessionSpec spec, List<KvPair> pairs) {
        return DecoderSessions.open(spec, pairs, null);
    }

    /** As above; with a {@code traceDir}, every session profiles its passes op by op into it ({@link #endProfiling}). */
    static OnnxRuntimeDecoder open(SessionSpec spec, List<KvPair> pairs, Path traceDir) {
        return DecoderSessions.open(spec, pairs, traceDir);
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
                        + "the present cache is handed to the next step as it is"
                        + (export == null ? "" : "; " + export.describe()
                        + (layout.branchFlag() == null ? "" : "; " + layout.branchFlag() + " false on the prefill (zero-length "
                        + "caches), true on each step")));
    }

    @Override
    public void prepare(long[] promptIds, int batch, int promptLength) {
        finish();
        this.batch = batch;
        if (encoder != null) {
            // the prompt is the encoder's source; the decoder starts from its start token, one position
            encoder.prepare(promptIds, batch, promptLength);
            this.position = 1;
            long[] start = new long[batch];
            java.util.Arrays.fill(start, encoder.startToken);
            setTokens(prefillLayout, start, new long[batch], 1);
        } else {
            this.position = promptLength;
            setTokens(prefillLayout, promptIds, DecoderSession.promptPositions(batch, promptLength), promptLength);
        }
        for (CacheInput cache : prefillLayout.cache()) {
            inputs.put(cache.past(), HostTensors.floats(env, ByteBuffer.allocateDirect(0), cache.shape(batch, 0), cache.type(),
                    owned));
        }
        if (branchOff != null) {
            inputs.put(layout.branchFlag(), branchOff);
        }
    }

    @Override
    public boolean hasEncoder() {
        return encoder != null;
    }

    /**
     * The encoder's pass; its output becomes the first decoder pass's {@code encoder_hidden_states}, and a mask of ones
     * over its length that pass's (and every step's) {@code encoder_attention_mask}, made here (a few microseconds) since
     * the length is the encoder's output's.
     */
    @Override
    public void encode() {
        OnnxTensor states = encoder.run();
        encoderStates = states;
        sourceLength = states.getInfo().getShape()[1];
        if (prefillLayout.encoderStates() != null) {
            inputs.put(prefillLayout.encoderStates(), states);
        }
        if (prefillLayout.encoderMask() != null) {
            inputs.put(prefillLayout.encoderMask(), sourceMask(prefillLayout));
        }
    }

    private OnnxTensor sourceMask(DecoderLayout pass) {
        long[] ones = new long[(int) (batch * sourceLength)];
        java.util.Arrays.fill(ones, 1);
        return ids(pass, ones, new long[] {batch, sourceLength});
    }

    @Override
    public void prefill() {
        run(prefillSession);
        if (layout.cache().stream().anyMatch(CacheInput::cross)) {
            firstPass = current;
        }
    }

    @Override
    public void step() {
        run(session);
    }

    /** The config's vocabulary against the first pass's logits, once (where the graph leaves it dynamic). */
    private void checkVocab() {
        vocabChecked = true;
        if (export != null && export.config() != null && export.config().vocabSize() != null
                && export.config().vocabSize() != vocab) {
            throw ExportChecks.configDisagrees(export.config(), List.of("it gives vocab_size " + export.config().vocabSize()
                    + ", and the first pass's logits have " + vocab + " per position"));
        }
    }

    private void run(OrtSession pass) {
        try {
            previous = current;
            current = pass.run(inputs);
            OnnxTensor out = (OnnxTensor) current.get(layout.logits()).orElseThrow();
            logits = HostTensors.logits(out, logits);
            vocab = HostTensors.vocab(out, logitsRank, logits.length, batch);
            if (!vocabChecked) {
                checkVocab();
            }
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime failed a generation pass at batch " + batch + ", position " + position
                    + ": " + e.getMessage(), e);
        }
    }

    @Override
    public float[] logits() {
        return logits;
    }

    @Override
    public int vocab() {
        return vocab;
    }

    @Override
    public void handOff(long[] tokens) {
        closeOwned();
        if (previous != null && previous != firstPass) {
            previous.close();
        }
        previous = null;
        long[] positions = new long[batch];
        java.util.Arrays.fill(positions, position);
        position++;
        setTokens(layout, tokens, positions, 1);
        for (CacheInput cache : layout.cache()) {
            OrtSession.Result source = cache.cross() ? firstPass : current;
            inputs.put(cache.past(), (OnnxTensor) source.get(cache.present()).orElseThrow());
        }
        if (layout.encoderMask() != null) {
            inputs.put(layout.encoderMask(), sourceMask(layout));
        }
        if (layout.encoderStates() != null) {
            inputs.put(layout.encoderStates(), encoderStates);
        }
        if (branchOn != null) {
            inputs.put(layout.branchFlag(), branchOn);
        }
    }

    private void setTokens(DecoderLayout pass, long[] ids, long[] positions, int length) {
        inputs.clear();
        long[] shape = {batch, length};
        inputs.put(pass.inputIds(), ids(pass, ids, shape));
        if (pass.positionIds() != null) {
            inputs.put(pass.positionIds(), ids(pass, positions, shape));
        }
        if (pass.attentionMask() != null) {
            long[] ones = new long[(int) (batch * position)];
            java.util.Arrays.fill(ones, 1);
            inputs.put(pass.attentionMask(), ids(pass, ones, new long[] {batch, position}));
        }
    }

    private OnnxTensor ids(DecoderLayout pass, long[] values, long[] shape) {
        return HostTensors.ids(env, pass.idsType(), values, shape, owned);
    }

    @Override
    public long crossCacheBytes() {
        return bytes(true);
    }

    @Override
    public long cacheBytes() {
        return bytes(false) + bytes(true);
    }

    /** The bytes of the self-attention caches the last pass wrote, or of the cross-attention caches the first pass did. */
    private long bytes(boolean cross) {
        long bytes = 0;
        for (CacheInput cache : layout.cache()) {
            if (cache.cross() != cross) {
                continue;
            }
            OnnxValue value = (cross ? firstPass : current).get(cache.present()).orElseThrow();
            long elements = 1;
            for (long size : ((TensorInfo) value.getInfo()).getShape()) {
                elements *= size;
            }
            bytes += elements * cache.type().bytes();
        }
        return bytes;
    }

    @Override
    public List<Path> endProfiling() {
        try {
            List<Path> files = new ArrayList<>();
            if (encoder != null) {
                files.add(Path.of(encoder.session.endProfiling()));
            }
            if (prefillSession != session) {
                files.add(Path.of(prefillSession.endProfiling()));
            }
            files.add(Path.of(session.endProfiling()));
            return files;
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime could not end the decoder's op profile: " + e.getMessage(), e);
        }
    }

    /** A batch of rows on this decoder's sessions; null for an encoder-decoder ({@link #rowsRefusal}). */
    @Override
    public io.inferbench.engine.RowBatch rows() {
        if (encoder != null) {
            return null;
        }
        finish();
        return new OnnxRuntimeRowBatch(env, session, prefillSession, layout, prefillLayout, logitsRank, branchOff, branchOn);
    }

    @Override
    public String rowsRefusal() {
        return encoder == null ? null : "an encoder-decoder's rows would each need their own encoder output and "
                + "cross-attention caches joined and left with them; batching under load is built for decoders alone";
    }

    @Override
    public void finish() {
        closeOwned();
        inputs.clear();
        for (OrtSession.Result r : new OrtSession.Result[] {previous, current}) {
            if (r != null && r != firstPass) {
                r.close();
            }
        }
        if (firstPass != null) {
            firstPass.close();
        }
        previous = null;
        current = null;
        firstPass = null;
        if (encoder != null) {
            encoder.finish();
        }
        encoderStates = null;
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
        if (branchOff != null) {
            branchOff.close();
            branchOn.close();
        }
        try {
            if (encoder != null) {
                encoder.session.close();
            }
            session.close();
            if (prefillSession != session) {
                prefillSession.close();
            }
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime failed to close a decoder session: " + e.getMessage(), e);
        } finally {
            options.close();
        }
    }
}
