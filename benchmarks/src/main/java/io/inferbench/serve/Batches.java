package io.inferbench.serve;

import java.util.List;

/** Runs one batch through an executor, stamping each request with the batch's stage times. */
final class Batches {
    private Batches() {
    }

    /**
     * Prepare, forward, fetch, each timed; every request of the batch gets the batch's times. A failure fails the
     * batch's requests with the error and leaves the worker serving the next one.
     */
    static void execute(BatchExecutor executor, List<Request> batch) {
        long start = System.nanoTime();
        for (Request r : batch) {
            r.batchStartNs = start;
            r.batchSize = batch.size();
        }
        try {
            executor.prepare(batch);
            long prepared = System.nanoTime();
            executor.forward();
            long forwarded = System.nanoTime();
            executor.fetch(batch);
            long done = System.nanoTime();
            long tokenizing = 0;
            for (Request r : batch) {
                tokenizing += r.tokenizeNs;
            }
            for (Request r : batch) {
                r.prepareNs = Math.max(0, prepared - start - tokenizing);
                r.forwardNs = forwarded - prepared;
                r.fetchNs = done - forwarded;
                r.doneNs = done;
            }
        } catch (RuntimeException e) {
            long failedAt = System.nanoTime();
            for (Request r : batch) {
                r.error = String.valueOf(e);
                r.doneNs = failedAt;
            }
        }
    }
}
