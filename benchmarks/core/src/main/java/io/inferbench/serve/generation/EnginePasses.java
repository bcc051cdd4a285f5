package io.inferbench.serve.generation;

import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.RowBatch;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The decoder's passes on its engine ({@link RowBatch}), each pick greedy, on the wall clock from the point's start.
 * Waiting parks until about a millisecond before the time, then spins, so a request is noticed within microseconds of
 * its intended send on an idle machine.
 */
final class EnginePasses implements Passes {
    private static final long SPIN_NS = 1_000_000;

    private final RowBatch rows;
    private final long originNs;
    private long relayoutNs;

    EnginePasses(RowBatch rows, long originNs) {
        this.rows = rows;
        this.originNs = originNs;
    }

    @Override
    public long nowNs() {
        return System.nanoTime() - originNs;
    }

    @Override
    public void waitUntil(long ns) {
        long left = ns - nowNs();
        if (left > 2 * SPIN_NS) {
            LockSupport.parkNanos(left - SPIN_NS);
        }
        while (nowNs() < ns) {
            Thread.onSpinWait();
        }
    }

    @Override
    public long[] prefill(List<long[]> prompts) {
        rows.prefill(prompts);
        return pick(prompts.size());
    }

    @Override
    public void join() {
        long start = System.nanoTime();
        rows.join();
        relayoutNs += System.nanoTime() - start;
    }

    @Override
    public void leave(int[] leaving) {
        long start = System.nanoTime();
        rows.leave(leaving);
        relayoutNs += System.nanoTime() - start;
    }

    @Override
    public long relayoutNs() {
        return relayoutNs;
    }

    @Override
    public long[] step(long[] tokens) {
        rows.step(tokens);
        return pick(tokens.length);
    }

    private long[] pick(int batch) {
        long[] tokens = new long[batch];
        DecoderSession.greedy(rows.logits(), batch, rows.vocab(), tokens);
        return tokens;
    }

    @Override
    public long cacheBytes() {
        return rows.cacheBytes();
    }

    @Override
    public long usedCacheBytes() {
        return rows.usedCacheBytes();
    }

    @Override
    public void clear() {
        rows.clear();
    }
}
