package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.inferbench.runner.ForkCells.cell;
import static io.inferbench.runner.ForkCells.outcome;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fork JVM stopped as slow: the cells it had not begun run next, in a fresh JVM of the same round. */
class SlowJvmRestTest {
    private final Cell a = cell("djl", 256, 1);
    private final Cell b = cell("djl", 256, 2);
    private final Cell c = cell("djl", 256, 3);
    private final SweepState state = new SweepState(List.of(List.of(a, b, c)));
    private final SlowJvmRest rule = new SlowJvmRest();

    @Test
    void theRestOfAStoppedJvmRunsNext() {
        ForkJob job = new ForkJob(2, List.of(a, b, c), ForkJob.Kind.ROUND, ForkJob.Reason.PLANNED);
        ForkRule.Decision decision = rule.after(state, outcome(job, true, List.of(a), null, List.of(b, c),
                "3 of its last 4 cells ran more than x1.5 slower"));
        assertEquals(List.of(new ForkJob(2, List.of(b, c), ForkJob.Kind.ROUND, ForkJob.Reason.SLOW_JVM_REST)), decision.jobs());
        assertTrue(decision.next());
        assertEquals("round, rest of a JVM stopped as slow", decision.jobs().get(0).label());
    }

    @Test
    void nothingFollowsAJvmThatWasNotStoppedOrHadNothingLeft() {
        ForkJob job = new ForkJob(2, List.of(a, b, c), ForkJob.Kind.ROUND, ForkJob.Reason.PLANNED);
        assertSame(ForkRule.Decision.NONE, rule.after(state, ForkCells.finished(job)));
        assertSame(ForkRule.Decision.NONE, rule.after(state, outcome(job, true, List.of(), b, List.of(c), null)),
                "a crash is CrashRestart's");
        assertSame(ForkRule.Decision.NONE, rule.after(state, outcome(job, true, List.of(a, b, c), null, List.of(), "slow")),
                "stopped at its last cell: nothing left");
    }
}
