package io.inferbench.serve;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;

/**
 * A backend whose pass takes a known time: {@code serviceNs(batchSize)}, waited out precisely (park, then spin). It can
 * stall once, for a given time, at a given batch, and fail every n-th batch, to test what the serving loop does with
 * either. Batches are counted across all executors one factory made.
 */
final class FakeExecutor implements BatchExecutor {
    private final IntToLongFunction serviceNs;
    private final AtomicInteger batches;
    private final int stallAtBatch;
    private final long stallNs;
    private final int failEvery;
    private int size;

    private FakeExecutor(IntToLongFunction serviceNs, AtomicInteger batches, int stallAtBatch, long stallNs, int failEvery) {
        this.serviceNs = serviceNs;
        this.batches = batches;
        this.stallAtBatch = stallAtBatch;
        this.stallNs = stallNs;
        this.failEvery = failEvery;
    }

    static Factory factory(IntToLongFunction serviceNs) {
        return factory(serviceNs, -1, 0, 0);
    }

    static Factory factory(IntToLongFunction serviceNs, int stallAtBatch, long stallNs, int failEvery) {
        AtomicInteger batches = new AtomicInteger();
        return () -> new FakeExecutor(serviceNs, batches, stallAtBatch, stallNs, failEvery);
    }

    @Override
    public void prepare(List<Request> batch) {
        size = batch.size();
    }

    @Override
    public void forward() {
        int n = batches.incrementAndGet();
        if (failEvery > 0 && n % failEvery == 0) {
            throw new IllegalStateException("planted failure at batch " + n);
        }
        long ns = serviceNs.applyAsLong(size) + (n == stallAtBatch ? stallNs : 0);
        long until = System.nanoTime() + ns;
        while (until - System.nanoTime() > 100_000) {
            LockSupport.parkNanos(until - System.nanoTime() - 100_000);
        }
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void fetch(List<Request> batch) {
    }

    @Override
    public void close() {
    }
}
