package io.inferbench.runner;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.results.CellResult;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a fork JVM's end means for each of its cells, written into the {@link SweepState}: a cell the fork ended is read
 * back from its folder ({@link CellAggregator}); a cell it did not end (a crash inside it, a session that never opened,
 * a JVM that ran none of its cells) fails in that round, with why; a cell it never reached is left for the JVM a rule
 * starts next ({@link CrashRestart}, {@link SlowJvmRest}). In a re-measurement, a cell that was not measured again keeps
 * its set-aside fork instead of failing. The JVM itself is added to the run's {@code forkJvms}.
 */
final class Settlement {
    private final SweepState state;
    private final RunStore store;
    private final Map<String, RunConfig.ModelInfo> models;
    private final Isolation isolation;
    private final ForkReporter reporter;
    private final Map<Cell, Integer> index = new HashMap<>();

    /**
     * @param plan   every cell of the sweep, in plan order: a cell's folder is numbered by its place
     * @param models each model of the plan, by the name the user gave
     */
    Settlement(SweepState state, List<Cell> plan, RunStore store, Map<String, RunConfig.ModelInfo> models, Isolation isolation,
               ForkReporter reporter) {
        this.state = state;
        this.store = store;
        this.models = Map.copyOf(models);
        this.isolation = isolation;
        this.reporter = reporter;
        for (int i = 0; i < plan.size(); i++) {
            index.put(plan.get(i), i);
        }
    }

    Path forkDir(Cell cell) {
        return store.forkDir(index.get(cell));
    }

    /** Before a re-measurement: each cell's measurement of the job's round is set aside, for the job's kind. */
    void setAside(ForkJob job) {
        for (Cell cell : job.cells()) {
            ForkFiles files = state.files(cell);
            for (String file : CellAggregator.measurements(forkDir(cell), job.round(), files)) {
                files = files.settingAside(file, job.kind().label());
            }
            state.setFiles(cell, files);
        }
    }

    /** Records what the JVM did: each cell it ended or failed to end, the JVM, and its cells' p50s. */
    void record(ForkOutcome outcome) {
        ForkJob job = outcome.job();
        if (!outcome.ranJvm()) {
            return;
        }
        for (Cell cell : job.cells()) {
            if (outcome.unreached().contains(cell) && !outcome.ranNoneOfItsCells()) {
                continue;
            }
            String notEnded = outcome.ended(cell) ? null : outcome.whyNotEnded(cell);
            if (job.kind().remeasures()) {
                settleRemeasurement(job, cell, notEnded);
            } else if (notEnded == null) {
                aggregate(cell, job.round());
            } else if (outcome.killedFromOutside() && cell.equals(outcome.runningCell())
                    && state.addKill(cell, job.round()) == 1) {
                // Killed from outside (kill -9, the OOM killer) while measuring it: not the cell's doing. Its round is
                // measured again in a fresh JVM (KilledRestart); its other rounds' forks stay as they are.
                continue;
            } else {
                // An open failure has written its error into every cell's folder; a crash, a kill, a launch failure or a
                // session that timed out while opening, nothing.
                if (!Files.exists(forkDir(cell).resolve(outcome.plan().fileName("error")))) {
                    CellTrial.writeError(forkDir(cell), outcome.plan(), new CellFault(notEnded), null);
                }
                aggregate(cell, job.round());
                reporter.failed(cell, job.round(), notEnded);
            }
        }
        state.addJvm(forkJvm(outcome));
        state.addForkP50s(outcome.p50sMs());
        if (outcome.stoppedAsSlow() != null) {
            state.markStoppedAsSlow(job);
        }
    }

    /**
     * A cell measured again: the fresh fork's measurement replaces the set-aside one, or, when there is none, the
     * set-aside fork counts again and the re-measurement's error is ignored. {@code crash} says why the JVM did not end
     * the cell, null when it did.
     */
    private void settleRemeasurement(ForkJob job, Cell cell, String crash) {
        Path dir = forkDir(cell);
        ForkFiles files = state.files(cell);
        boolean replaced = !CellAggregator.measurements(dir, job.round(), files).isEmpty();
        if (!replaced) {
            files = files.restoring(job.round());
            for (String error : CellAggregator.errors(dir, job.round(), files)) {
                files = files.ignoring(error);
            }
            state.setFiles(cell, files);
        }
        aggregate(cell, job.round());
        if (crash != null || !replaced) {
            reporter.remeasureFailed(cell, job.round(), crash);
        } else {
            reporter.remeasured(job, cell, state.result(cell));
        }
    }

    /**
     * A cell a round's fork has just ended, measured or failed, while its JVM goes on: its result from its folder now, so
     * that run.json holds it before the JVM ends. When the JVM ends, {@link #record} settles it again, the same way.
     */
    void cellEnded(Cell cell, int round) {
        aggregate(cell, round);
    }

    /** The cell's result from everything its forks have left in its folder so far. */
    private void aggregate(Cell cell, int round) {
        state.setResult(cell, CellAggregator.aggregate(cell, models.get(cell.model()), round, forkDir(cell), isolation,
                state.files(cell)));
    }

    private ForkJvm forkJvm(ForkOutcome outcome) {
        ForkJob job = outcome.job();
        Cell first = job.first();
        ForkEvent.Ready ready = outcome.ready();
        return new ForkJvm(job.round(), new SeriesKey.EngineModel(first.backend(), first.device(), first.model()),
                outcome.exit().pid(), job.cells().stream().map(Cell::id).toList(),
                new ForkJvm.Start(outcome.jvmStartMs(), ready == null ? null : ready.engineLoadMs(),
                        ready == null ? null : ready.sessionCreateMs(), ready == null ? null : ready.sessionRssMb(),
                        firstInference(job)),
                outcome.wallSeconds(), outcome.exit().exitCode(), outcome.jvmError(), job.label());
    }

    /** The JVM's first pass, at its first cell's shape; null when that cell has no fork of this JVM. */
    private Double firstInference(ForkJob job) {
        CellResult first = state.result(job.first());
        if (first == null || first.forkRuns() == null) {
            return null;
        }
        return first.forkRuns().stream().filter(f -> f.round() == job.round() && f.positionInJvm() == 0)
                .map(f -> f.firstPassMs()).findFirst().orElse(null);
    }
}
