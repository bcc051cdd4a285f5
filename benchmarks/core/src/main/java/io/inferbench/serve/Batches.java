package io.inferbench.serve;

import java.util.List;

/** Runs one batch through an executor, stamping each request with the batch's stage times. */
final class Batches {
    private Batches() {
    }

    /**
     * Prepare, forward, fetch, each timed; every request of the batch gets the batch's times. An exception fails the
     * batch's requests with it and leaves the worker serving the next one. An {@link Error} fails the batch too, then
     * goes on up: the worker cannot be trusted to serve on (its caller fails what it leaves unserved with the cause).
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
            java.util.Map<String, Long> forwardParts = executor.lastPhasesNs();
            executor.fetch(batch);
            long done = System.nanoTime();
            long tokenizing = 0;
            for (Request r : batch) {
                tokenizing += r.tokenizeNs;
            }
            for (Request r : batch) {
                r.batchTokenizeNs = tokenizing;
                r.prepareNs = prepared - start - tokenizing;
                r.forwardNs = forwarded - prepared;
                r.fetchNs = done - forwarded;
                r.forwardPartsNs = forwardParts;
                r.doneNs = done;
            }
        } catch (RuntimeException e) {
            fail(batch, e);
        } catch (Error e) {
            fail(batch, e);
            throw e;
        }
    }

    private static void fail(List<Request> batch, Throwable cause) {
        long failedAt = System.nanoTime();
        for (Request r : batch) {
            r.error = String.valueOf(cause);
            r.doneNs = failedAt;
        }
    }
}
