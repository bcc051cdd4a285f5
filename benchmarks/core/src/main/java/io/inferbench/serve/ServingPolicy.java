package io.inferbench.serve;

import io.inferbench.Text;

/**
 * How requests are served: {@code workers} model instances take requests from one queue, each running one batch at a
 * time; with a batcher ({@code maxBatch > 1}), a worker starts a batch when {@code maxBatch} requests are waiting, or
 * when the oldest has waited {@code maxWaitMs}, whichever comes first.
 *
 * <p>The bound a batcher keeps: counted from when a request arrived or its worker became free, whichever is later, no
 * request is held longer than {@code maxWaitMs} plus the time a parked thread takes to run again (the tests allow 5 ms on
 * a shared 2-core machine). Before its worker is free a request waits for the worker, not the batcher: that is queueing,
 * reported as queue wait like the batcher's own hold.
 */
public record ServingPolicy(int workers, int maxBatch, double maxWaitMs) {
    public ServingPolicy {
        if (workers < 1 || maxBatch < 1 || !(maxWaitMs >= 0)) {
            throw new IllegalArgumentException("workers and maxBatch must be 1 or more, maxWaitMs 0 or more: " + this);
        }
    }

    /** One worker, one request per pass: a plain queue in front of the model. */
    public static ServingPolicy unbatched(int workers) {
        return new ServingPolicy(workers, 1, 0);
    }

    public boolean batching() {
        return maxBatch > 1;
    }

    public long maxWaitNs() {
        return Math.round(maxWaitMs * 1e6);
    }

    /**
     * The batching rule, the one place it is written: the live batcher ({@link OpenLoopRun}) and the forecast
     * ({@link QueueSimulator}) both ask it, so a forecast never follows another rule than the run it predicts. A batch
     * starts now when {@code maxBatch} requests are waiting, when the oldest has waited {@code maxWaitMs}, or when no
     * more requests will come; otherwise the batcher decides again at the next arrival or at {@link #holdEndsNs},
     * whichever is first.
     *
     * @param waiting         requests waiting now, at least 1
     * @param oldestArrivalNs when the oldest of them arrived
     * @param nowNs           now, on the same clock
     * @param moreComing      whether more requests will arrive
     */
    public boolean startsBatch(int waiting, long oldestArrivalNs, long nowNs, boolean moreComing) {
        return waiting >= maxBatch || nowNs - oldestArrivalNs >= maxWaitNs() || !moreComing;
    }

    /** When the hold of a request that arrived at {@code oldestArrivalNs} runs out: the latest a batch starts without a new arrival. */
    public long holdEndsNs(long oldestArrivalNs) {
        return oldestArrivalNs + maxWaitNs();
    }

    /** {@code concurrency 4}, or {@code batch<=8 wait 5 ms}: the name a policy has in tables and plots. */
    public String label() {
        if (!batching()) {
            return workers == 1 ? "no batching" : "workers " + workers;
        }
        return Text.f("batch<=%d wait %s ms", maxBatch, Text.plain(maxWaitMs)) + (workers > 1 ? ", workers " + workers : "");
    }
}
