package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.RowBatch;
import io.inferbench.inputs.CacheInput;
import io.inferbench.inputs.DecoderLayout;
import io.inferbench.inputs.ElementType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A running batch of a decoder on ONNX Runtime whose rows join and leave between steps ({@link RowBatch}), on the
 * decoder's own sessions (a split export's prefill graph for the prefills).
 *
 * <p><b>The caches.</b> A step hands its present outputs to the next step as they are, as a generation does: nothing is
 * copied while the rows stay the same. A {@link #join} or {@link #leave} copies every cache tensor once into a new
 * left-padded layout (the rows' own positions at the right end, zeros before them, masked out): a host copy, since the
 * Java API has no IOBinding, of the whole running cache. That copy is the price this engine pays for iteration-level
 * batching without paged attention, and it falls in the time of the step it precedes.
 */
final class OnnxRuntimeRowBatch implements RowBatch {
    private final OrtEnvironment env;
    private final OrtSession steps;
    private final OrtSession prefillSession;
    private final DecoderLayout layout;
    private final DecoderLayout prefillLayout;
    private final int logitsRank;
    private final OnnxTensor branchOff;
    private final OnnxTensor branchOn;

    /** Each running row's own positions, and the padded length they are held at. */
    private int[] lengths = new int[0];
    private int padded;
    /** The running batch's cache tensors, by cache; owned by {@link #owner} (a pass's result) or by {@link #built}. */
    private final Map<CacheInput, OnnxTensor> cache = new LinkedHashMap<>();
    private OrtSession.Result owner;
    private final List<OnnxTensor> built = new ArrayList<>();

    private OrtSession.Result pending;
    private int[] pendingLengths = new int[0];
    private int pendingPadded;

    private final List<OnnxTensor> passInputs = new ArrayList<>();
    private float[] logits;
    private int vocab;
    private boolean closed;

    OnnxRuntimeRowBatch(OrtEnvironment env, OrtSession steps, OrtSession prefillSession, DecoderLayout layout,
                        DecoderLayout prefillLayout, int logitsRank, OnnxTensor branchOff, OnnxTensor branchOn) {
        this.env = env;
        this.steps = steps;
        this.prefillSession = prefillSession;
        this.layout = layout;
        this.prefillLayout = prefillLayout;
        this.logitsRank = logitsRank;
        this.branchOff = branchOff;
        this.branchOn = branchOn;
    }

    @Override
    public boolean pads() {
        return layout.attentionMask() != null;
    }

    @Override
    public void prefill(List<long[]> prompts) {
        int k = prompts.size();
        int longest = prompts.stream().mapToInt(p -> p.length).max().orElseThrow();
        int[] rowLengths = prompts.stream().mapToInt(p -> p.length).toArray();
        if (!pads() && Arrays.stream(rowLengths).anyMatch(l -> l != longest)) {
            throw new BenchmarkException("prompts of lengths " + Arrays.toString(rowLengths) + " cannot be prefilled "
                    + "together: the model has no attention_mask input to pad the shorter ones");
        }
        long[] ids = new long[k * longest];
        long[] positions = new long[k * longest];
        long[] mask = new long[k * longest];
        for (int r = 0; r < k; r++) {
            long[] prompt = prompts.get(r);
            int pad = longest - prompt.length;
            for (int i = 0; i < prompt.length; i++) {
                ids[r * longest + pad + i] = prompt[i];
                positions[r * longest + pad + i] = i;
                mask[r * longest + pad + i] = 1;
            }
        }
        Map<String, OnnxTensor> inputs = new LinkedHashMap<>();
        feedTokens(prefillLayout, inputs, ids, positions, mask, k, longest, longest);
        for (CacheInput c : prefillLayout.cache()) {
            inputs.put(c.past(), tensor(ByteBuffer.allocateDirect(0), c.shape(k, 0), c.type()));
        }
        if (branchOff != null) {
            inputs.put(layout.branchFlag(), branchOff);
        }
        OrtSession.Result result = run(prefillSession, inputs, k);
        if (pending != null) {
            pending.close();
        }
        pending = result;
        pendingLengths = rowLengths;
        pendingPadded = longest;
    }

    @Override
    public void join() {
        if (pending == null) {
            return;
        }
        int[] joined = concat(lengths, pendingLengths);
        if (lengths.length == 0) {
            releaseCache();
            for (CacheInput c : layout.cache()) {
                cache.put(c, present(pending, c));
            }
            owner = pending;
            padded = pendingPadded;
        } else {
            int target = Math.max(padded, pendingPadded);
            requireEqual(joined, "join");
            int running = lengths.length;
            relayout(joined.length, target, (c, to) -> {
                ByteBuffer kept = cache.get(c).getByteBuffer();
                ByteBuffer added = present(pending, c).getByteBuffer();
                for (int r = 0; r < running; r++) {
                    copyRow(c, kept, r, padded, to, r, target, lengths[r]);
                }
                for (int r = 0; r < pendingLengths.length; r++) {
                    copyRow(c, added, r, pendingPadded, to, running + r, target, pendingLengths[r]);
                }
            });
            pending.close();
        }
        pending = null;
        lengths = joined;
        pendingLengths = new int[0];
    }

    @Override
    public void leave(int[] rows) {
        if (rows.length == 0) {
            return;
        }
        boolean[] gone = new boolean[lengths.length];
        for (int r : rows) {
            gone[r] = true;
        }
        int[] kept = new int[lengths.length - rows.length];
        int[] from = new int[kept.length];
        for (int r = 0, i = 0; r < lengths.length; r++) {
            if (!gone[r]) {
                from[i] = r;
                kept[i++] = lengths[r];
            }
        }
        if (kept.length == 0) {
            releaseCache();
            lengths = kept;
            padded = 0;
            return;
        }
        int target = Arrays.stream(kept).max().orElseThrow();
        relayout(kept.length, target, (c, to) -> {
            ByteBuffer running = cache.get(c).getByteBuffer();
            for (int i = 0; i < kept.length; i++) {
                copyRow(c, running, from[i], padded, to, i, target, kept[i]);
            }
        });
        lengths = kept;
        padded = target;
    }

    /** Fills one cache tensor of the new layout, {@code to}, from the current ones. */
    private interface Fill {
        void rows(CacheInput c, ByteBuffer to);
    }

    /**
     * Replaces every cache tensor of the running batch with a new one of {@code rows} rows at {@code target} positions,
     * zeros (masked out) where {@code fill} copies nothing; the old tensors are closed once all are made.
     */
    private void relayout(int rows, int target, Fill fill) {
        Map<CacheInput, OnnxTensor> next = new LinkedHashMap<>();
        List<OnnxTensor> made = new ArrayList<>();
        for (CacheInput c : layout.cache()) {
            long[] shape = c.shape(rows, target);
            ByteBuffer to = ByteBuffer.allocateDirect(Math.toIntExact(bytes(shape, c.type()))).order(ByteOrder.nativeOrder());
            fill.rows(c, to);
            OnnxTensor tensor = tensor(to.rewind(), shape, c.type());
            passInputs.remove(tensor);
            made.add(tensor);
            next.put(c, tensor);
        }
        releaseCache();
        cache.putAll(next);
        built.addAll(made);
        padded = target;
    }

    @Override
    public void step(long[] tokens) {
        int n = lengths.length;
        if (tokens.length != n || n == 0) {
            throw new IllegalArgumentException("a step takes one token per running row: " + n + " row(s), "
                    + tokens.length + " token(s)");
        }
        long[] positions = new long[n];
        long[] mask = new long[n * (padded + 1)];
        for (int r = 0; r < n; r++) {
            positions[r] = lengths[r];
            Arrays.fill(mask, r * (padded + 1) + padded - lengths[r], (r + 1) * (padded + 1), 1);
        }
        requireEqual(lengths, "step");
        Map<String, OnnxTensor> inputs = new LinkedHashMap<>();
        feedTokens(layout, inputs, tokens, positions, mask, n, 1, padded + 1);
        cache.forEach((c, t) -> inputs.put(c.past(), t));
        if (branchOn != null) {
            inputs.put(layout.branchFlag(), branchOn);
        }
        OrtSession.Result result = run(steps, inputs, n);
        releaseCache();
        for (CacheInput c : layout.cache()) {
            cache.put(c, present(result, c));
        }
        owner = result;
        for (int r = 0; r < n; r++) {
            lengths[r]++;
        }
        padded++;
    }

    /** Without a mask, rows of different lengths cannot share a pass. */
    private void requireEqual(int[] rowLengths, String what) {
        if (!pads() && Arrays.stream(rowLengths).distinct().count() > 1) {
            throw new BenchmarkException("rows of lengths " + Arrays.toString(rowLengths) + " cannot " + what + " one "
                    + "batch: the model has no attention_mask input to pad the shorter ones");
        }
    }

    private void feedTokens(DecoderLayout pass, Map<String, OnnxTensor> inputs, long[] ids, long[] positions, long[] mask,
                            int batch, int length, int total) {
        inputs.put(pass.inputIds(), ids(pass, ids, new long[] {batch, length}));
        if (pass.positionIds() != null) {
            inputs.put(pass.positionIds(), ids(pass, positions, new long[] {batch, length}));
        }
        if (pass.attentionMask() != null) {
            inputs.put(pass.attentionMask(), ids(pass, mask, new long[] {batch, total}));
        }
    }

    private OrtSession.Result run(OrtSession session, Map<String, OnnxTensor> inputs, int batch) {
        try {
            OrtSession.Result result = session.run(inputs);
            OnnxTensor out = (OnnxTensor) result.get(layout.logits()).orElseThrow();
            logits = HostTensors.logits(out, logits);
            vocab = HostTensors.vocab(out, logitsRank, logits.length, batch);
            return result;
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime failed a batched generation pass at " + batch + " row(s): "
                    + e.getMessage(), e);
        } finally {
            passInputs.forEach(OnnxTensor::close);
            passInputs.clear();
        }
    }

    /**
     * Copies row {@code fromRow}'s last {@code valid} positions of a cache held at {@code fromPadded} positions into row
     * {@code toRow} of one held at {@code toPadded}, again at the right end.
     */
    private static void copyRow(CacheInput c, ByteBuffer from, int fromRow, int fromPadded, ByteBuffer to, int toRow,
                                int toPadded, int valid) {
        long[] shape = c.shape(1, 1);
        long between = 1;
        for (int i = 1; i < c.positionAxis(); i++) {
            between *= shape[i];
        }
        long inner = c.type().bytes();
        for (int i = c.positionAxis() + 1; i < shape.length; i++) {
            inner *= shape[i];
        }
        int span = Math.toIntExact(valid * inner);
        for (long m = 0; m < between; m++) {
            long source = ((fromRow * between + m) * fromPadded + (fromPadded - valid)) * inner;
            long target = ((toRow * between + m) * toPadded + (toPadded - valid)) * inner;
            to.put(Math.toIntExact(target), from, Math.toIntExact(source), span);
        }
    }

    private static long bytes(long[] shape, ElementType type) {
        long n = type.bytes();
        for (long s : shape) {
            n *= s;
        }
        return n;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static OnnxTensor present(OrtSession.Result result, CacheInput c) {
        return (OnnxTensor) result.get(c.present()).orElseThrow(() -> new BenchmarkException("the pass gave no "
                + c.present() + " output, the cache its next step reads"));
    }

    /** An int64 or int32 tensor (as the pass's ids input is typed), closed after the pass. */
    private OnnxTensor ids(DecoderLayout pass, long[] values, long[] shape) {
        return HostTensors.ids(env, pass.idsType(), values, shape, passInputs);
    }

    /** A float tensor over {@code buffer}, closed after the next pass unless taken out of {@link #passInputs}. */
    private OnnxTensor tensor(ByteBuffer buffer, long[] shape, ElementType type) {
        return HostTensors.floats(env, buffer, shape, type, passInputs);
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
    public int rows() {
        return lengths.length;
    }

    @Override
    public long cacheBytes() {
        return layout.cache().stream().filter(c -> !c.cross()).mapToLong(c -> c.bytes(lengths.length, padded)).sum();
    }

    @Override
    public long usedCacheBytes() {
        long bytes = 0;
        for (int length : lengths) {
            for (CacheInput c : layout.cache()) {
                bytes += c.cross() ? 0 : c.bytes(1, length);
            }
        }
        return bytes;
    }

    /** Closes the running batch's cache tensors: the result that owns them, or the copies made by a join or leave. */
    private void releaseCache() {
        if (owner != null) {
            owner.close();
            owner = null;
        }
        built.forEach(OnnxTensor::close);
        built.clear();
        cache.clear();
    }

    @Override
    public void clear() {
        releaseCache();
        if (pending != null) {
            pending.close();
            pending = null;
        }
        passInputs.forEach(OnnxTensor::close);
        passInputs.clear();
        lengths = new int[0];
        pendingLengths = new int[0];
        padded = 0;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        clear();
    }
}
