package io.inferbench.serve;

import io.inferbench.engine.InferenceSession;

import java.util.List;

/**
 * A worker's executor on a real session: a {@link InferenceSession.Runner} of its own, so workers run passes at once on
 * the one loaded model (what is shared is the backend's to say: {@link InferenceSession#sharing()}).
 *
 * <ul>
 *   <li><b>prepare</b>: the batch's token ids copied into one {@code [rows, seq]} input and turned into the engine's
 *       tensors. Without a workload: seeded ids at the serving seq. With one: each request's own ids (text requests are
 *       tokenized here first, timed on their own), padded to the bucket of the batch's longest member, mask 0 on the
 *       padding;</li>
 *   <li><b>forward</b>: one synchronized pass, outputs read back to host memory;</li>
 *   <li><b>fetch</b>: the first output copied out and split into each request's rows.</li>
 * </ul>
 */
public final class SessionExecutor implements BatchExecutor {
    private final InferenceSession.Runner runner;
    private final HostBatches batches;
    private final boolean readOutputs;
    /** Where a call is marked for the serving JVM's watch ({@link ServedCallWatch}); null where none is installed. */
    private final ServedCallWatch.Slot watched = ServedCallWatch.slot();
    private long sink;

    public SessionExecutor(InferenceSession session, int seqLen, int rowsPerRequest, int maxBatch, long seed) {
        this(session, seqLen, rowsPerRequest, maxBatch, seed, null);
    }

    /** @param inputs what each request carries: a fixed shape, or the workload's requests */
    public SessionExecutor(InferenceSession session, int seqLen, int rowsPerRequest, int maxBatch, long seed, RequestShape inputs) {
        this(session, new HostBatches(seqLen, rowsPerRequest, maxBatch, seed, inputs, null, session.takesText()), true);
    }

    /**
     * @param readOutputs false for the ablation's outputs left unread: {@link #fetch} then copies nothing out of the
     *                    engine's output (the pass has still finished and its outputs are in host memory)
     */
    SessionExecutor(InferenceSession session, HostBatches batches, boolean readOutputs) {
        this.runner = session.newRunner();
        this.batches = batches;
        this.readOutputs = readOutputs;
    }

    @Override
    public void prepare(List<Request> batch) {
        io.inferbench.engine.TokenBatch inputs = batches.build(batch);
        if (watched == null) {
            runner.prepare(inputs);
            return;
        }
        watched.begin("prepare");
        try {
            runner.prepare(inputs);
        } finally {
            watched.end();
        }
    }

    @Override
    public void forward() {
        if (watched == null) {
            sink += runner.forward();
            return;
        }
        watched.begin("call");
        try {
            sink += runner.forward();
        } finally {
            watched.end();
        }
    }

    @Override
    public java.util.Map<String, Long> lastPhasesNs() {
        return runner.lastPhasesNs();
    }

    @Override
    public void fetch(List<Request> batch) {
        if (!readOutputs) {
            return;
        }
        if (watched == null) {
            sink += splitPerRequest(runner.firstOutput(), batch.size());
            return;
        }
        watched.begin("output");
        try {
            sink += splitPerRequest(runner.firstOutput(), batch.size());
        } finally {
            watched.end();
        }
    }

    /**
     * A service's post-processing of one batch's output: each request's rows copied out into an array of its own. Returns
     * a fold of what was copied, so the copies cannot be optimised away.
     */
    static long splitPerRequest(float[] output, int requests) {
        long folded = 0;
        int perRequest = output.length / requests;
        for (int i = 0; i < requests && perRequest > 0; i++) {
            float[] mine = new float[perRequest];
            System.arraycopy(output, i * perRequest, mine, 0, perRequest);
            folded += Float.floatToRawIntBits(mine[0]);
        }
        return folded;
    }

    /** The length of the last pass's first output, in floats: what a no-op engine must hand back for the same batch. */
    int lastOutputFloats() {
        return runner.firstOutput().length;
    }

    /** Folds every result into a value, so no work can be optimised away. */
    public long sink() {
        return sink;
    }

    @Override
    public void close() {
        if (watched != null) {
            watched.close();
        }
        runner.close();
    }
}
