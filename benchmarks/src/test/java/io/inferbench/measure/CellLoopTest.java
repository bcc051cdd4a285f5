package io.inferbench.measure;

import io.inferbench.probe.CpuProbe;
import io.inferbench.probe.CpuTime;

import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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

    /**
     * Priming runs both rules to their decisions over synthetic passes of 1.0-1.1 ms: warm-ups that end steady, one
     * after another, and a p50 interval that 20,000 such passes make narrow. A priming that skipped either rule (and
     * left its classes to load during the first cell) reads 0 or null here.
     */
    @Test
    void primingRunsBothRulesToTheirDecisions() {
        CellLoop.Primed primed = CellLoop.primeRules(20_000);
        assertTrue(primed.warmupsEnded() >= 100, "warm-ups ended steady: " + primed.warmupsEnded());
        assertNotNull(primed.p50HalfWidthPercent(), "the stop rule's interval");
        assertTrue(primed.p50HalfWidthPercent() > 0 && primed.p50HalfWidthPercent() < 1, "a narrow interval: "
                + primed.p50HalfWidthPercent());
    }

    /**
     * Another process takes half the machine during the first measurement (its passes run at 3 ms, not 1 ms): that
     * measurement is set aside, kept apart, and the cell measured again on a quiet machine. A machine busy every time
     * keeps its last measurement after {@link CellLoop#MAX_REMEASURES} set aside.
     */
    @Test
    void aMeasurementTheMachineWasNotOursForIsSetAsideAndMeasuredAgain() {
        long[] now = {0};
        boolean[] busy = {true};
        NanoClock clock = () -> now[0];
        int cores = Runtime.getRuntime().availableProcessors();
        // Each reading: this process's CPU so far (one thread, always busy) and the machine's busy time: while another
        // process runs it takes half of every core.
        double[] machineMs = {0};
        long[] lastNow = {0};
        CpuProbe probe = () -> {
            double elapsedMs = (now[0] - lastNow[0]) / (double) MS;
            machineMs[0] += elapsedMs * (1 + (busy[0] ? 0.5 * cores : 0));
            lastNow[0] = now[0];
            return new CpuProbe.Snapshot(now[0], machineMs[0], java.util.Map.of());
        };
        MeasurePolicy policy = new MeasurePolicy(WarmupPolicy.untilSteady(0.05, 5000), new StopPolicy(100, 0.02, 0.95, 2, 0, 3000));

        PassRecorder always = new PassRecorder(clock);
        MeasureOutcome kept = new CellLoop(always, policy, clock, () -> -1, List.of(new CpuTime(probe, cores)), 1, 1).measure(() -> {
            now[0] += 3 * MS;
            return 1;
        });
        assertEquals(CellLoop.MAX_REMEASURES, kept.setAside().size(), "busy every time: the last measurement is kept");
        assertEquals(100, kept.passes());
        assertEquals(100L * CellLoop.MAX_REMEASURES, always.discardedNs().getTotalCount(), "the set-aside passes are kept apart");
        assertEquals(50.0, kept.setAside().get(0).otherProcessesPercent(), 0.5);

        PassRecorder keepFirst = new PassRecorder(clock);
        MeasureOutcome first = new CellLoop(keepFirst, policy, clock, () -> -1, List.of(new CpuTime(probe, cores)), 1, 1)
                .measure(() -> {
                    now[0] += 3 * MS;
                    return 1;
                }, 0);
        assertTrue(first.setAside() == null || first.setAside().isEmpty(), "none set aside where no measuring again is asked");
        assertEquals(100, first.passes());
        assertEquals(0, keepFirst.discardedNs().getTotalCount());
        assertTrue(CellLoop.disturbed(first.cpu()), "the kept measurement says it was disturbed");

        int[] passes = {0};
        PassRecorder quietAfter = new PassRecorder(clock);
        MeasureOutcome second = new CellLoop(quietAfter, policy, clock, () -> -1, List.of(new CpuTime(probe, cores)), 1, 1).measure(() -> {
            busy[0] = passes[0]++ < 100; // busy during the first measurement only
            now[0] += busy[0] ? 3 * MS : MS;
            return 1;
        });
        assertEquals(1, second.setAside().size(), "one measurement set aside");
        assertEquals(3.0, second.setAside().get(0).p50Ms(), 0.01, "its median was the disturbed one");
        assertEquals(1.0, quietAfter.measuredNs().getValueAtPercentile(50) / (double) MS, 0.01, "the kept one is quiet");
        assertEquals(100, quietAfter.discardedNs().getTotalCount());
        assertEquals(100, second.passes());
    }
}
