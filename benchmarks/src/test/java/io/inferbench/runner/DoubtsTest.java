package io.inferbench.runner;

import io.inferbench.results.DepartedFork;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.inferbench.runner.ForkCells.cell;
import static io.inferbench.runner.ForkCells.finished;
import static io.inferbench.runner.ForkCells.measured;
import static io.inferbench.runner.ForkCells.withSetAside;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** After the departed forks' re-measurement: only a fast departure that a fresh JVM confirmed puts its siblings in doubt. */
class DoubtsTest {
    private final Cell a = cell("djl", 256, 1);
    private final Cell b = cell("djl", 256, 2);
    private final SweepState state = new SweepState(List.of(List.of(a, b)));
    private final Doubts rule = new Doubts(new Remeasurement(1.5, 42, 3, null));
    private final ForkJob lastDeparted = new ForkJob(2, List.of(a), ForkJob.Kind.DEPARTED, ForkJob.Reason.PLANNED);

    @Test
    void aFastDepartureAFreshJvmConfirmedPutsItsSiblingsInDoubt() {
        // Rounds 1 and 3 in slow JVMs (2 ms), round 2 normal (1 ms), which departed as fast; its fresh JVM read 1.05 ms.
        state.setResult(a, withSetAside(measured(a, 2.0, 1.05, 2.0), 2, 1.0, DepartedFork.DEPARTED));
        state.setResult(b, measured(b, 4.0, 4.1, 4.2));
        ForkRule.Decision decision = rule.after(state, finished(lastDeparted));

        assertEquals(List.of(new ForkJob(1, List.of(a), ForkJob.Kind.DOUBTED, ForkJob.Reason.PLANNED),
                new ForkJob(3, List.of(a), ForkJob.Kind.DOUBTED, ForkJob.Reason.PLANNED)), decision.jobs(),
                "the siblings, rounds 1 and 3, each in a fresh JVM of its own round");
        assertTrue(decision.console().contains("1 fresh measurement(s) agreed with the departed fork")
                && decision.console().contains("measuring 2 sibling fork(s) again too"), decision.console());
        assertTrue(decision.log().get(0).startsWith("[inferbench] departure confirmed: djl/cpu/tiny/seq256/batch1 fork 2 p50 "
                + "1.000 ms, then 1.051 ms in a fresh JVM"), decision.log().get(0));
    }

    @Test
    void aSlowDepartureAFreshJvmConfirmedLeavesItsSiblingsWithALineInTheLog() {
        state.setResult(a, withSetAside(measured(a, 1.01, 1.02, 3.2), 3, 3.0, DepartedFork.DEPARTED));
        ForkRule.Decision decision = rule.after(state, finished(lastDeparted));
        assertTrue(decision.jobs().isEmpty());
        assertNull(decision.console());
        assertEquals(1, decision.log().size());
        assertTrue(decision.log().get(0).contains("departure confirmed on the slow side") && decision.log().get(0).contains(
                "its siblings (rounds [1, 2]) [1.010, 1.020] ms are kept"), decision.log().get(0));
    }

    @Test
    void aFreshJvmThatDisagreedOrAQueuedReMeasurementLeavesEverything() {
        state.setResult(a, withSetAside(measured(a, 2.0, 2.05, 2.0), 2, 1.0, DepartedFork.DEPARTED));
        assertSame(ForkRule.Decision.NONE, rule.after(state, finished(lastDeparted)), "the fresh JVM read as the siblings did");
        state.setResult(a, withSetAside(measured(a, 2.0, 1.05, 2.0), 2, 1.0, DepartedFork.DEPARTED));
        state.enqueue(List.of(new ForkJob(1, List.of(b), ForkJob.Kind.DEPARTED, ForkJob.Reason.PLANNED)), false);
        assertSame(ForkRule.Decision.NONE, rule.after(state, finished(lastDeparted)), "a departed fork is still to be measured");
        ForkJob round = new ForkJob(3, List.of(a), ForkJob.Kind.ROUND, ForkJob.Reason.PLANNED);
        state.nextJob();
        assertSame(ForkRule.Decision.NONE, rule.after(state, finished(round)), "only the re-measurement's end asks");
    }
}
