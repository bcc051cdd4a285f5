package io.inferbench.runner;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.DepartedFork;
import io.inferbench.sweep.ForwardKind;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Cells, forks and JVM outcomes made by hand, for the rules' tests: no engine, no executor, no files. */
final class ForkCells {
    private ForkCells() {
    }

    /** A measured cell whose fork of round {@code i + 1} ran 20 passes of {@code p50sMs[i]}, each within ±1%. */
    static CellResult measured(Cell cell, double... p50sMs) {
        Histogram all = PassRecorder.newHistogram();
        List<String> forks = new ArrayList<>();
        List<CellFork> runs = new ArrayList<>();
        for (int i = 0; i < p50sMs.length; i++) {
            Histogram fork = passes(p50sMs[i]);
            all.add(fork);
            forks.add(HistogramCodec.encode(fork));
            runs.add(fork(i + 1));
        }
        LatencySummary latency = LatencySummary.of(all);
        return new CellResult(CellStatus.OK, null, new CellResult.Identity(cell.backend(), cell.device(), cell.model(), "ab",
                cell.seqLen(), cell.batch()), new CellResult.Counts(p50sMs.length, 10L * p50sMs.length, 20L * p50sMs.length),
                new CellResult.Latency(latency, null, 1.0), null, new CellResult.Session(null, 1, 1, null, null, null, null),
                new CellResult.Histograms(HistogramCodec.encode(all), forks), CellResult.ForkRecords.of(runs));
    }

    /** {@code cell} with a fork of {@code round} set aside after reading {@code p50Ms}, for {@code reason}. */
    static CellResult withSetAside(CellResult cell, int round, double p50Ms, String reason) {
        List<DepartedFork> setAside = new ArrayList<>(cell.departedForks() == null ? List.of() : cell.departedForks());
        setAside.add(new DepartedFork(fork(round), p50Ms, p50Ms, cell.latencyMs().p50Ms(), HistogramCodec.encode(passes(p50Ms)),
                "fork-r" + round + "-jvm001.json", reason));
        return cell.withDepartedForks(setAside);
    }

    /** How a job's JVM ended, with the cells it ended, the one it was in when it ended, and the ones it never began. */
    static ForkOutcome outcome(ForkJob job, boolean opened, List<Cell> ended, Cell running, List<Cell> unreached,
                               String stoppedAsSlow) {
        return outcome(job, opened, ended, running, unreached, stoppedAsSlow,
                stoppedAsSlow != null ? 137 : running != null ? 134 : 0);
    }

    /** As above, the JVM ending with {@code exitCode} (137: killed by SIGKILL). */
    static ForkOutcome outcome(ForkJob job, boolean opened, List<Cell> ended, Cell running, List<Cell> unreached,
                               String stoppedAsSlow, int exitCode) {
        ForkPlan plan = new ForkPlan(1, job.round(), new ForwardKind(), job.first().backend(), job.first().device(), job.first().model(),
                job.cells().stream().map(c -> new ForkPlan.PlannedCell(c.seqLen(), c.batch(), null)).toList(), null, null,
                null, JitCompilation.FOREGROUND);
        ForkOutcome.Jvm jvm = new ForkOutcome.Jvm(plan, new ForkExecutor.ForkExit(4242, exitCode, 0, ""), null,
                opened ? new ForkEvent.Ready(1, 1, 1, null) : null, null, running == null ? null : running.id(), stoppedAsSlow);
        return new ForkOutcome(job, jvm, ended.stream().map(Cell::id).toList(), unreached, Map.of(), 1.0, 0.5);
    }

    /** A JVM that ran every cell of its job to its end. */
    static ForkOutcome finished(ForkJob job) {
        return outcome(job, true, job.cells(), null, List.of(), null);
    }

    static Cell cell(String backend, int seq, int batch) {
        return new Cell(backend, "cpu", "tiny", seq, batch);
    }

    private static Histogram passes(double ms) {
        Histogram h = PassRecorder.newHistogram();
        h.recordValueWithCount(Math.round(ms * 1e6), 20);
        return h;
    }

    private static CellFork fork(int round) {
        return new CellFork(round, 4242, 0, 1.0, new WarmupOutcome(10, 5.0, 0.0, WarmupEnd.STEADY),
                MeasureOutcome.of(20, 21.0, 20.0, 0.0, 1.0, 0.95, MeasureEnd.PRECISE, io.inferbench.probe.Probe.Readings.NONE));
    }
}
