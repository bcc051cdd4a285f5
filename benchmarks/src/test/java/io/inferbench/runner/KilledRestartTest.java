package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.inferbench.runner.ForkCells.cell;
import static io.inferbench.runner.ForkCells.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 54: a fork JVM killed from outside (kill -9, the OOM killer) while measuring a cell is measured again in a fresh
 * JVM, that cell first and then the ones it did not reach; a second kill of the same fork fails the cell, and the
 * crash rule takes the rest. Settlement counts the kill before the rules are asked, as the sweep does.
 */
class KilledRestartTest {
    private final Cell a = cell("onnxruntime", 64, 1);
    private final Cell b = cell("onnxruntime", 64, 2);
    private final Cell c = cell("onnxruntime", 64, 3);
    private final SweepState state = new SweepState(List.of(List.of(a, b, c)));
    private final ForkJob job = new ForkJob(2, List.of(a, b, c), ForkJob.Kind.ROUND, ForkJob.Reason.PLANNED);

    @Test
    void aKilledForkIsMeasuredAgainWithTheCellsItDidNotReach() {
        ForkOutcome killed = outcome(job, true, List.of(a), b, List.of(c), null, 137);
        state.addKill(b, 2);
        ForkRule.Decision decision = new KilledRestart().after(state, killed);
        assertEquals(List.of(new ForkJob(2, List.of(b, c), ForkJob.Kind.ROUND, ForkJob.Reason.KILLED_RESTART)), decision.jobs());
        assertTrue(decision.next());
        assertTrue(decision.console().contains("SIGKILL"), decision.console());
        assertSame(ForkRule.Decision.NONE, new CrashRestart().after(state, killed), "one restart, not two");
    }

    @Test
    void aSecondKillFailsTheCellAndTheCrashRuleTakesTheRest() {
        ForkOutcome killed = outcome(job, true, List.of(a), b, List.of(c), null, 137);
        state.addKill(b, 2);
        state.addKill(b, 2);
        assertSame(ForkRule.Decision.NONE, new KilledRestart().after(state, killed));
        assertEquals(List.of(new ForkJob(2, List.of(c), ForkJob.Kind.ROUND, ForkJob.Reason.CRASH_RESTART)),
                new CrashRestart().after(state, killed).jobs());
    }

    @Test
    void aCrashOrTheCodesOwnExitIsNotAKill() {
        state.addKill(b, 2);
        assertSame(ForkRule.Decision.NONE, new KilledRestart().after(state, outcome(job, true, List.of(a), b, List.of(c), null, 134)));
        assertSame(ForkRule.Decision.NONE, new KilledRestart().after(state, outcome(job, true, List.of(a), b, List.of(c), null, 7)));
    }
}
