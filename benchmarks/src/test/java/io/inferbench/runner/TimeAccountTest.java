package io.inferbench.runner;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.SetAside;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.RunTiming;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The account of a run's wall time: measured parts from the forks, timed phases, and parts that add up. */
class TimeAccountTest {
    @Test
    void measuredPassesAndWarmUpComeFromTheForksAndThePartsAddUpToTheWall() {
        TimeAccount account = new TimeAccount();
        account.add(TimeAccount.Phase.PREFLIGHT, 0.010);
        account.add(TimeAccount.Phase.SWEEP, 0.100);
        account.add(TimeAccount.Phase.JVM_START, 0.005);
        account.add(TimeAccount.Phase.ENGINE_AND_SESSION, 0.010);
        account.jvmStarted();
        account.add(TimeAccount.Phase.REPORT, 0.010);
        sleep(150);
        CellFork fork = new CellFork(1, 1, 0, 2.0, new WarmupOutcome(10, 8.0, 0.0, WarmupEnd.STEADY),
                MeasureOutcome.of(100, 21.0, 20.0, 0.0, 1.0, 0.95, MeasureEnd.PRECISE, io.inferbench.probe.Probe.Readings.NONE));
        CellResult measured = measured(List.of(fork));
        // Measured again after a disturbance: the set-aside measurement's wall is a part of its own, not overhead.
        CellFork disturbed = new CellFork(1, 1, 0, 2.0, new WarmupOutcome(10, 8.0, 0.0, WarmupEnd.STEADY),
                MeasureOutcome.of(100, 21.0, 20.0, 0.0, 1.0, 0.95, MeasureEnd.PRECISE, io.inferbench.probe.Probe.Readings.NONE)
                        .withSetAside(List.of(new SetAside(50, 3.0, 0.2, 25.0))));
        CellResult remeasured = measured(List.of(disturbed));
        List<CellResult> cells = List.of(measured, remeasured,
                CellResult.failed(new SeriesKey("onnxruntime", "cpu", "tiny", 64), "ab", 2, "failed"));
        RunTiming t = account.close(cells.stream().filter(c -> c.forkRuns() != null).flatMap(c -> c.forkRuns().stream()).toList());

        assertEquals(0.040, t.measuredPassesSeconds(), 1e-12, "the exact sums of the measured passes");
        assertEquals(0.020, t.warmupSeconds(), 1e-12, "warm-up and the first pass at the shape");
        assertEquals(0.003, t.setAsideSeconds(), 1e-12, "the set-aside measurement's wall");
        assertEquals(t.sweepSeconds() - 0.040 - 0.020 - 0.003 - 0.005 - 0.010, t.sweepOverheadSeconds(), 1e-12);
        assertEquals(0.040 / t.sweepSeconds(), t.timedShareOfSweep(), 1e-12);
        assertEquals(0.040 / t.wallSeconds(), t.timedShareOfWall(), 1e-12);
        assertTrue(t.sweepSeconds() >= 0.099 && t.reportSeconds() >= 0.009, t.toString());
        assertEquals(t.wallSeconds(), t.preflightSeconds() + t.sweepSeconds() + t.reportSeconds() + t.otherSeconds(), 1e-9,
                "the parts add up to the wall");
        assertEquals(1, t.jvmStarts());
        assertTrue(TimeAccount.line(t).startsWith("[inferbench] time: "), TimeAccount.line(t));
        assertTrue(TimeAccount.line(t).contains("warm-up 0 s, set aside as disturbed and measured again 0 s, 1 JVM start(s)"),
                TimeAccount.line(t));
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A measured cell of one fork, of 10 warm-up and 100 measured passes, with {@code runs} as its fork's record. */
    private static CellResult measured(List<CellFork> runs) {
        return new CellResult(CellStatus.OK, null, new CellResult.Identity("onnxruntime", "cpu", "tiny", "ab", 64, 1),
                new CellResult.Counts(1, 10, 100), null, null, null, null, CellResult.ForkRecords.of(runs));
    }
}
