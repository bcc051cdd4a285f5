package io.inferbench.serve.generation;

import java.util.List;

/**
 * Passes priced from the generation cells' curves ({@link PassCurves}) on a clock that jumps: the scheduler runs over
 * them as it does over the engine, in no time. Each pass is multiplied by the idle penalty at the idle time before it
 * ({@link IdlePenalty}). What it leaves out: the cache copies a continuous batch's joins and leaves make, the steps'
 * growth with the context, and anything else on the machine.
 */
final class ForecastPasses implements Passes {
    private final PassCurves curves;
    private final IdlePenalty idle;
    private long now;
    /** When the last pass ended; far in the past before the first. */
    private long lastPassEnd = Long.MIN_VALUE / 2;

    ForecastPasses(PassCurves curves, IdlePenalty idle) {
        this.curves = curves;
        this.idle = idle;
    }

    @Override
    public long nowNs() {
        return now;
    }

    @Override
    public void waitUntil(long ns) {
        now = Math.max(now, ns);
    }

    @Override
    public long[] prefill(List<long[]> prompts) {
        pass(curves.prefillNs(prompts.size(), prompts.stream().mapToInt(p -> p.length).max().orElse(1)));
        return new long[prompts.size()];
    }

    @Override
    public void join() {
    }

    @Override
    public void leave(int[] leaving) {
    }

    @Override
    public long[] step(long[] tokens) {
        pass(curves.stepNs(tokens.length));
        return new long[tokens.length];
    }

    private void pass(long ns) {
        now += Math.round(ns * idle.factor(now - lastPassEnd));
        lastPassEnd = now;
    }

    @Override
    public long cacheBytes() {
        return 0;
    }

    @Override
    public long usedCacheBytes() {
        return 0;
    }

    @Override
    public void clear() {
    }
}
