package io.inferbench.serve;

import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.TokenBatch;
import io.inferbench.model.TokenInputs;

import java.util.List;

/**
 * A worker's executor on a real session: a {@link InferenceSession.Runner} of its own, so workers run passes at once on
 * the one loaded model (what is shared is the backend's to say: {@link InferenceSession#sharing()}).
 *
 * <ul>
 *   <li><b>prepare</b>: the batch's token ids (seeded, like the sweep's) copied into one {@code [rows, seq]} input and
 *       turned into the engine's tensors;</li>
 *   <li><b>forward</b>: one synchronized pass, outputs read back to host memory;</li>
 *   <li><b>fetch</b>: the first output copied out and split into each request's rows.</li>
 * </ul>
 */
public final class SessionExecutor implements BatchExecutor {
    private final InferenceSession.Runner runner;
    private final int seqLen;
    private final int rowsPerRequest;
    private final long[] tokenPool;
    private long sink;

    public SessionExecutor(InferenceSession session, int seqLen, int rowsPerRequest, int maxBatch, long seed) {
        this.runner = session.newRunner();
        this.seqLen = seqLen;
        this.rowsPerRequest = rowsPerRequest;
        this.tokenPool = TokenInputs.tokenIds(maxBatch * rowsPerRequest, seqLen, seed);
    }

    @Override
    public void prepare(List<Request> batch) {
        int rows = batch.size() * rowsPerRequest;
        long[] ids = new long[rows * seqLen];
        System.arraycopy(tokenPool, 0, ids, 0, ids.length);
        runner.prepare(TokenBatch.full(rows, seqLen, ids));
    }

    @Override
    public void forward() {
        sink += runner.forward();
    }

    @Override
    public void fetch(List<Request> batch) {
        float[] output = runner.firstOutput();
        int perRequest = output.length / batch.size();
        for (int i = 0; i < batch.size() && perRequest > 0; i++) {
            float[] mine = new float[perRequest];
            System.arraycopy(output, i * perRequest, mine, 0, perRequest);
            sink += Float.floatToRawIntBits(mine[0]);
        }
    }

    /** Folds every result into a value, so no work can be optimised away. */
    public long sink() {
        return sink;
    }

    @Override
    public void close() {
        runner.close();
    }
}
