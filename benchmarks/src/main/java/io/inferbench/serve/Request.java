package io.inferbench.serve;

/**
 * One request's life, in {@code System.nanoTime} nanoseconds: written by the generator (intended, sent), then by the
 * worker that served it (batch start, stage ends, done). A request is complete when {@code doneNs > 0}, failed when
 * {@code error} is set; the run's end makes every unfinished one failed, so sent is always completed plus failed.
 *
 * <p>Fields are written by one thread at a time and handed over through the queue's lock (and the workers' join at the
 * end), which orders them.
 */
public final class Request {
    final int index;
    final long intendedNs;
    long sentNs;
    /** When the worker that served it became free and asked for a batch (0 for closed-loop requests). */
    long workerReadyNs;
    long batchStartNs;
    long prepareNs;
    long forwardNs;
    long fetchNs;
    long doneNs;
    int batchSize;
    String error;
    /** Which request of the workload this is, or -1 without a workload. */
    final int workloadIndex;
    /** Time spent tokenizing this request's text (text workloads), inside its batch's prepare. */
    long tokenizeNs;

    Request(int index, long intendedNs) {
        this(index, intendedNs, -1);
    }

    Request(int index, long intendedNs, int workloadIndex) {
        this.index = index;
        this.intendedNs = intendedNs;
        this.workloadIndex = workloadIndex;
    }

    boolean completed() {
        return doneNs > 0 && error == null;
    }
}
