package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.inferbench.runner.ForkCells.cell;
import static io.inferbench.runner.ForkCells.finished;
import static io.inferbench.runner.ForkCells.measured;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** After the rounds, each departed fork is measured again: one job per group and round with departures, once. */
class DeparturesTest {
    private final Cell ort1 = cell("onnxruntime", 64, 1);
    private final Cell ort2 = cell("onnxruntime", 64, 2);
    private final Cell djl1 = cell("djl", 64, 1);
    private final Cell djl2 = cell("djl", 64, 2);
    private final SweepState state = new SweepState(List.of(List.of(ort1, ort2), List.of(djl1, djl2)));
    private final Departures rule = new Departures(new Remeasurement(1.5, 42, 3, null));
    private final ForkJob lastRound = new ForkJob(3, List.of(djl1, djl2), ForkJob.Kind.ROUND, ForkJob.Reason.PLANNED);

    @Test
    void afterTheLastRoundEachGroupsDepartedForksAreMeasuredAgainPerRound() {
        state.setResult(ort1, measured(ort1, 1.0, 1.02, 3.0));
        state.setResult(ort2, measured(ort2, 2.0, 2.1, 6.5));
        state.setResult(djl1, measured(djl1, 5.0, 15.0, 5.2));
        state.setResult(djl2, measured(djl2, 9.0, 9.1, 9.2));
        ForkRule.Decision decision = rule.after(state, finished(lastRound));

        assertEquals(List.of(new ForkJob(3, Cell.order(List.of(ort1, ort2), 42, 6), ForkJob.Kind.DEPARTED, ForkJob.Reason.PLANNED),
                new ForkJob(2, List.of(djl1), ForkJob.Kind.DEPARTED, ForkJob.Reason.PLANNED)), decision.jobs(),
                "ONNX Runtime's round 3 (both cells, in a seeded order of their own), then DJL's round 2");
        assertTrue(!decision.next(), "after everything queued");
        assertEquals(3, decision.cellRuns());
        assertTrue(decision.console().startsWith("[inferbench] 3 fork(s) departed from their siblings by more than x1.5"),
                decision.console());
        assertEquals(3, decision.log().size(), "each departure in the log");
        assertTrue(decision.log().get(2).contains("djl/cpu/tiny/seq64/batch1 fork 2 p50 15.008 ms, x2.89"), decision.log().get(2));
    }

    @Test
    void itWaitsForTheRoundsAndAsksOnceForACell() {
        state.setResult(ort1, measured(ort1, 1.0, 1.02, 3.0));
        state.enqueue(List.of(new ForkJob(3, List.of(djl1), ForkJob.Kind.ROUND, ForkJob.Reason.CRASH_RESTART)), true);
        assertSame(ForkRule.Decision.NONE, rule.after(state, finished(lastRound)), "a round's JVM is still queued");
        state.nextJob();
        ForkJob departedJob = new ForkJob(3, List.of(ort1), ForkJob.Kind.DEPARTED, ForkJob.Reason.PLANNED);
        assertSame(ForkRule.Decision.NONE, rule.after(state, finished(departedJob)), "only the rounds' end asks");
        state.setResult(ort1, ForkCells.withSetAside(measured(ort1, 1.0, 1.02, 1.01), 3, 3.0, "departed"));
        assertSame(ForkRule.Decision.NONE, rule.after(state, finished(lastRound)), "a cell measured again is not asked again");
    }

    @Test
    void cellsPerJvmCutsAGroupsRoundIntoJobs() {
        Departures cut = new Departures(new Remeasurement(1.5, 42, 3, 1));
        state.setResult(ort1, measured(ort1, 1.0, 1.02, 3.0));
        state.setResult(ort2, measured(ort2, 2.0, 2.1, 6.5));
        assertEquals(2, cut.after(state, finished(lastRound)).jobs().size(), "one JVM per cell");
    }
}
