package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.inferbench.runner.ForkCells.cell;
import static io.inferbench.runner.ForkCells.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A crashed fork JVM's unreached cells: run next in a fresh JVM, unless that JVM would only do the same again. */
class CrashRestartTest {
    private final Cell a = cell("onnxruntime", 64, 1);
    private final Cell b = cell("onnxruntime", 64, 2);
    private final Cell c = cell("onnxruntime", 64, 3);
    private final Cell d = cell("onnxruntime", 64, 4);
    private final SweepState state = new SweepState(List.of(List.of(a, b, c, d)));
    private final CrashRestart rule = new CrashRestart();

    @Test
    void theCellsACrashLeftUnreachedRunNextInAFreshJvmOfTheSameJob() {
        ForkJob job = new ForkJob(2, List.of(a, b, c, d), ForkJob.Kind.ROUND, ForkJob.Reason.PLANNED);
        // a measured, b crashed the JVM while measuring, c and d never begun.
        ForkRule.Decision decision = rule.after(state, outcome(job, true, List.of(a), b, List.of(c, d), null));
        assertEquals(List.of(new ForkJob(2, List.of(c, d), ForkJob.Kind.ROUND, ForkJob.Reason.CRASH_RESTART)), decision.jobs());
        assertTrue(decision.next(), "before anything queued: the rest of a round's JVM stays in its round");
    }

    @Test
    void aReMeasurementThatCrashedRestartsAsAReMeasurement() {
        ForkJob job = new ForkJob(3, List.of(a, b), ForkJob.Kind.DEPARTED, ForkJob.Reason.PLANNED);
        ForkRule.Decision decision = rule.after(state, outcome(job, true, List.of(), a, List.of(b), null));
        assertEquals(ForkJob.Kind.DEPARTED, decision.jobs().get(0).kind(), "its cell's fork stays set aside until measured");
        assertEquals("departed, restart after a crash", decision.jobs().get(0).label());
    }

    @Test
    void aJvmThatRanNoneOfItsCellsOrNeverOpenedOrEndedWellOrWasStoppedIsNotRestarted() {
        ForkJob job = new ForkJob(1, List.of(a, b), ForkJob.Kind.ROUND, ForkJob.Reason.PLANNED);
        assertSame(ForkRule.Decision.NONE, rule.after(state, outcome(job, true, List.of(), null, List.of(a, b), null)),
                "opened its session and began none: another JVM would do the same");
        assertSame(ForkRule.Decision.NONE, rule.after(state, outcome(job, false, List.of(), null, List.of(), null)),
                "no session: its cells failed");
        assertSame(ForkRule.Decision.NONE, rule.after(state, ForkCells.finished(job)));
        assertSame(ForkRule.Decision.NONE, rule.after(state, outcome(job, true, List.of(a), null, List.of(b), "slow")),
                "a stop is SlowJvmRest's");
    }
}
