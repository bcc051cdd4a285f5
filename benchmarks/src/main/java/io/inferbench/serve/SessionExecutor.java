package io.inferbench.serve;

import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.TokenBatch;
import io.inferbench.model.TokenInputs;
import io.inferbench.workload.BucketAdvisor;

import java.util.Arrays;
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
    private final int seqLen;
    private final int rowsPerRequest;
    private final long[] tokenPool;
    private final RequestInputs inputs;
    private final long seed;
    private long sink;

    public SessionExecutor(InferenceSession session, int seqLen, int rowsPerRequest, int maxBatch, long seed) {
        this(session, seqLen, rowsPerRequest, maxBatch, seed, null);
    }

    /** @param inputs the workload requests are drawn from, or null for fixed synthetic requests */
    public SessionExecutor(InferenceSession session, int seqLen, int rowsPerRequest, int maxBatch, long seed, RequestInputs inputs) {
        this.runner = session.newRunner();
        this.seqLen = seqLen;
        this.rowsPerRequest = rowsPerRequest;
        this.tokenPool = TokenInputs.tokenIds(maxBatch * rowsPerRequest, seqLen, seed);
        this.inputs = inputs;
        this.seed = seed;
    }

    @Override
    public void prepare(List<Request> batch) {
        if (inputs == null) {
            int rows = batch.size() * rowsPerRequest;
            long[] ids = new long[rows * seqLen];
            System.arraycopy(tokenPool, 0, ids, 0, ids.length);
            runner.prepare(TokenBatch.full(rows, seqLen, ids));
            return;
        }
        long[][] requestIds = new long[batch.size()][];
        int longest = 1;
        for (int i = 0; i < batch.size(); i++) {
            Request r = batch.get(i);
            long[] ids;
            if (inputs.workload().hasText()) {
                long start = System.nanoTime();
                ids = inputs.tokenizer().encode(inputs.workload().texts().get(r.workloadIndex));
                r.tokenizeNs = System.nanoTime() - start;
            } else {
                ids = TokenInputs.tokenIds(1, inputs.workload().lengths()[r.workloadIndex], seed + r.workloadIndex);
            }
            requestIds[i] = Arrays.copyOf(ids, inputs.cappedLength(r.workloadIndex));
            longest = Math.max(longest, requestIds[i].length);
        }
        int bucket = BucketAdvisor.bucketOf(longest, inputs.buckets());
        long[] ids = new long[batch.size() * bucket];
        long[] mask = new long[ids.length];
        for (int i = 0; i < batch.size(); i++) {
            System.arraycopy(requestIds[i], 0, ids, i * bucket, requestIds[i].length);
            Arrays.fill(mask, i * bucket, i * bucket + requestIds[i].length, 1L);
        }
        runner.prepare(new TokenBatch(batch.size(), bucket, ids, mask));
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
