package io.inferbench.measure;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cell's warm-up and measurement on a fake engine whose passes advance a fake clock: a slow start that settles, a
 * JIT that compiles for a while. Warm-up must absorb the transient, and no warm-up pass may reach the results.
 */
class CellLoopTest {
    private static final long MS = 1_000_000L;

    /** An engine whose pass i takes {@code latencyNs(i)} of the fake clock's time. */
    private static final class FakeEngine implements Pass {
        final long[] now = {0};
        int passes;

        long latencyNs(int i) {
            // 5 ms falling to 1 ms over the first 200 passes (first-shape allocations, caches), then 1 ms with jitter.
            return i < 200 ? MS + (long) (4 * MS * (1 - i / 200.0)) : MS + (i % 7) * 10_000L;
        }

        @Override
        public long forward() {
            now[0] += latencyNs(passes++);
            return 1;
        }
    }

    @Test
    void warmUpAbsorbsTheTransientAndOnlySteadyPassesAreMeasured() {
        FakeEngine engine = new FakeEngine();
        NanoClock clock = () -> engine.now[0];
        JitClock jit = () -> Math.min(engine.now[0], 300 * MS) / (10 * MS); // 10% of the time compiling until 300 ms
        PassRecorder recorder = new PassRecorder(clock);
        MeasurePolicy policy = new MeasurePolicy(WarmupPolicy.untilSteady(0.05, 5000),
                new StopPolicy(null, 0.02, 0.95, 2, 200, 3000));
        CellLoop loop = new CellLoop(recorder, policy, clock, jit);

        WarmupOutcome warmup = loop.warmUp(engine);
        assertEquals(WarmupEnd.STEADY, warmup.end());
        assertTrue(warmup.passes() > 200, "the transient lasts 200 passes: " + warmup.passes());
        assertTrue(warmup.wallMs() > 300, "and the JIT is busy until 300 ms: " + warmup.wallMs());
        assertEquals(warmup.passes(), recorder.warmupNs().getTotalCount());

        MeasureOutcome measured = loop.measure(engine);
        assertEquals(MeasureEnd.PRECISE, measured.end());
        assertEquals(measured.passes(), recorder.measuredNs().getTotalCount());
        assertEquals(warmup.passes() + measured.passes(), engine.passes, "every pass timed once, in one phase");
        assertTrue(recorder.measuredNs().getMaxValue() < 1.1 * MS, "no transient pass was measured: max "
                + recorder.measuredNs().getMaxValue());
        assertTrue(measured.wallMs() >= 200, "the minimum time");
        assertEquals(measured.wallMs(), measured.passesMs(), 1e-9, "with a fake clock only the passes take time");
        assertTrue(measured.p50HalfWidthPercent() <= 2);
        assertEquals(engine.passes, loop.checksum(), "every checksum reaches the blackhole");
    }

    @Test
    void primingTheRulesRunsThemWithoutTouchingAnyCell() {
        CellLoop.primeRules(20_000);
    }
}
