package io.inferbench.serve;

import io.inferbench.engine.TokenBatch;
import io.inferbench.model.TokenInputs;
import io.inferbench.workload.BucketAdvisor;

import java.util.Arrays;
import java.util.List;

/**
 * A batch's inputs in host memory, before any engine sees them: what every executor builds the same way, so an ablation
 * that replaces the engine keeps this part.
 *
 * <ul>
 *   <li>Without a workload: {@code [rows, seq]} seeded ids at the serving seq, copied from one pool.</li>
 *   <li>With one: each request's own ids, padded to the bucket of the batch's longest member, mask 0 on the padding.
 *       Text requests are tokenized here, each timed into {@link Request#tokenizeNs}, unless the ids were tokenized
 *       before the load ({@code pretokenized}: the ablation's fixed tokens), or the session reads text itself
 *       ({@code rawText}: a user's target, which tokenizes inside its own call): then each request's text goes with the
 *       batch ({@link TokenBatch#texts}), with seeded ids of its known length, and the harness tokenizes nothing.</li>
 * </ul>
 * Not thread-safe: one per executor.
 */
final class HostBatches {
    private final int seqLen;
    private final int rowsPerRequest;
    private final long[] tokenPool;
    private final RequestShape inputs;
    private final long seed;
    private final long[][] pretokenized;
    private final boolean rawText;

    /**
     * @param inputs       what each request carries: a fixed shape of seeded ids, or the workload's requests
     * @param pretokenized each workload text's ids, tokenized before the load; null to tokenize each request as it is served
     */
    HostBatches(int seqLen, int rowsPerRequest, int maxBatch, long seed, RequestShape inputs, long[][] pretokenized,
                boolean rawText) {
        this.rawText = rawText;
        this.seqLen = seqLen;
        this.rowsPerRequest = rowsPerRequest;
        this.tokenPool = TokenInputs.tokenIds(maxBatch * rowsPerRequest, seqLen, seed);
        this.inputs = inputs;
        this.seed = seed;
        this.pretokenized = pretokenized;
    }

    /** Every text of a workload tokenized, for {@code pretokenized}; null when the workload has no text. */
    static long[][] pretokenize(RequestShape inputs) {
        if (!(inputs instanceof RequestInputs w) || !w.workload().hasText()) {
            return null;
        }
        List<String> texts = w.workload().texts();
        long[][] ids = new long[texts.size()][];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = w.tokenizer().encode(texts.get(i));
        }
        return ids;
    }

    TokenBatch build(List<Request> batch) {
        if (!(inputs instanceof RequestInputs workload)) {
            int rows = batch.size() * rowsPerRequest;
            long[] ids = new long[rows * seqLen];
            System.arraycopy(tokenPool, 0, ids, 0, ids.length);
            return TokenBatch.full(rows, seqLen, ids);
        }
        long[][] requestIds = new long[batch.size()][];
        List<String> texts = rawText && workload.workload().hasText() ? new java.util.ArrayList<>(batch.size()) : null;
        int longest = 1;
        for (int i = 0; i < batch.size(); i++) {
            Request r = batch.get(i);
            long[] ids;
            if (texts != null) {
                texts.add(workload.workload().texts().get(r.workloadIndex));
                ids = TokenInputs.tokenIds(1, workload.workload().lengths()[r.workloadIndex], seed + r.workloadIndex);
            } else if (workload.workload().hasText() && pretokenized != null) {
                ids = pretokenized[r.workloadIndex];
            } else if (workload.workload().hasText()) {
                long start = System.nanoTime();
                ids = workload.tokenizer().encode(workload.workload().texts().get(r.workloadIndex));
                r.tokenizeNs = System.nanoTime() - start;
            } else {
                ids = TokenInputs.tokenIds(1, workload.workload().lengths()[r.workloadIndex], seed + r.workloadIndex);
            }
            requestIds[i] = Arrays.copyOf(ids, workload.cappedLength(r.workloadIndex));
            longest = Math.max(longest, requestIds[i].length);
        }
        int bucket = BucketAdvisor.bucketOf(longest, workload.buckets());
        long[] ids = new long[batch.size() * bucket];
        long[] mask = new long[ids.length];
        for (int i = 0; i < batch.size(); i++) {
            System.arraycopy(requestIds[i], 0, ids, i * bucket, requestIds[i].length);
            Arrays.fill(mask, i * bucket, i * bucket + requestIds[i].length, 1L);
        }
        return new TokenBatch(batch.size(), bucket, ids, mask, texts);
    }
}
