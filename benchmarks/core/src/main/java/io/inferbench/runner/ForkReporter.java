package io.inferbench.runner;

import io.inferbench.Text;
import io.inferbench.results.CellResult;
import io.inferbench.results.DepartedFork;

import java.util.ArrayList;
import java.util.List;

/**
 * Every line the sweep prints while it runs, to the console and the run's {@code console.log} ({@link Progress}): a
 * line per cell and fork with what it measured, why it stopped and the time left ({@link EtaEstimator}), what the rules
 * decided, and the detail the console has no room for. The forks measured again after the rounds go to the log only,
 * failures aside.
 */
final class ForkReporter {
    private final Progress progress;
    private final EtaEstimator eta;
    /** A cell once for each of its fork runs still to come, for the estimate. */
    private final List<Cell> remainingCells = new ArrayList<>();
    /** The engine of each planned round JVM not started yet, for the estimate of their start-up. */
    private final List<String> remainingJvms = new ArrayList<>();
    private int step;
    private final CellKind kind;

    /** @param kind what the cells measure: what the run and its units are called */
    ForkReporter(Progress progress, EtaEstimator eta, List<ForkJob> rounds, CellKind kind) {
        this.progress = progress;
        this.kind = kind;
        this.eta = eta;
        rounds.forEach(job -> {
            remainingCells.addAll(job.cells());
            remainingJvms.add(job.first().backend());
        });
    }

    void say(String line) {
        progress.say(line);
    }

    void log(String line) {
        progress.log(line);
    }

    /** A job is taken off the queue; its re-measurements report to the log only. */
    void jobStarting(ForkJob job) {
        progress.quiet(job.kind().remeasures());
        if (job.kind() == ForkJob.Kind.ROUND && job.reason() == ForkJob.Reason.PLANNED) {
            remainingJvms.remove(job.first().backend());
        }
    }

    /** A cell failed in an earlier round, so its fork of this round is not run. */
    void skipped(Cell cell, int round) {
        step(cell, cell.id() + " fork " + round + ": skipped, the cell already failed", false);
    }

    void cellDone(ForkJob job, Cell cell, ForkEvent.CellDone e, double seconds) {
        eta.cellFinished(cell, seconds, e.p50Ms());
        String phases = e.phasesP50Ms() == null ? "" : String.join("", e.phasesP50Ms().entrySet().stream()
                .map(p -> Text.f(", %s p50 %.3f ms", p.getKey(), p.getValue())).toList());
        step(cell, Text.f("%s fork %d: p50 %.3f ms, p99 %.3f ms%s (warm-up %d, %s; %d %s, %s%s; %.1f s%s)", cell.id(),
                job.round(), e.p50Ms(), e.p99Ms(), phases, e.warmupPasses(), e.warmupEnd().label(), e.passes(), kind.units(), e.stop().label(),
                e.precisionPercent() == null ? "" : Text.f(" ±%.1f%%", e.precisionPercent()), seconds,
                e.cpuPercent() == null ? "" : Text.f("; CPU %.0f%% of its threads%s", e.cpuPercent(),
                        e.otherPercent() == null ? "" : Text.f(", others %.0f%% of the machine", e.otherPercent()))), false);
    }

    void cellFailed(ForkJob job, Cell cell, String error, double seconds) {
        eta.cellFinished(cell, seconds, null);
        step(cell, cell.id() + " fork " + job.round() + " FAILED: " + error, true);
    }

    /** A cell the JVM did not end itself: it crashed, or never opened its session. */
    void failed(Cell cell, int round, String why) {
        step(cell, cell.id() + " fork " + round + " FAILED: " + why, true);
    }

    /** A re-measurement that measured nothing: the set-aside fork counts again. */
    void remeasureFailed(Cell cell, int round, String crash) {
        if (crash != null) {
            step(cell, cell.id() + " fork " + round + " re-measurement FAILED: " + crash + "; the set-aside fork is kept", true);
        } else {
            say("[inferbench] " + cell.id() + " fork " + round + ": the re-measurement failed; the set-aside fork is kept");
        }
    }

    /** Each fork a re-measurement replaced, in the log. */
    void remeasured(ForkJob job, Cell cell, CellResult result) {
        if (result.departedForks() == null) {
            return;
        }
        for (DepartedFork d : result.departedForks().stream().filter(d -> d.fork().round() == job.round()).toList()) {
            log(Text.f("[inferbench] measured again: %s fork %d (%s): p50 %.3f ms in its first JVM, %.3f ms in a fresh one, "
                    + "its forks' median now %.3f ms", cell.id(), job.round(), d.reason(), d.p50Ms(),
                    ForkDeparture.keptP50sMs(result).get(job.round()), d.keptForksP50Ms()));
        }
    }

    void stoppingSlowJvm(ForkJob job, String why) {
        // The log only (the console has a line budget): run.json's forkJvms and report.md say it too.
        log("[inferbench] stopping the " + job.first().backend() + " fork JVM of round " + job.round() + ": " + why
                + "; its remaining cells go to a fresh JVM, its slow ones are measured again after the rounds");
    }

    /** The time of a JVM outside its cells, for the estimate. */
    void jvmEnded(ForkOutcome outcome) {
        eta.jvmOverhead(outcome.job().first().backend(), outcome.wallSeconds() - outcome.cellSeconds());
    }

    /** What a rule decided: its lines, and the fork runs it added to the count. */
    void decided(ForkRule.Decision decision) {
        // New fork runs; a JVM for the rest of another's cells adds none (they were counted with that JVM).
        List<Cell> added = decision.jobs().stream().filter(j -> j.reason() == ForkJob.Reason.PLANNED)
                .flatMap(j -> j.cells().stream()).toList();
        remainingCells.addAll(added);
        progress.addRuns(added.size());
        if (decision.console() != null) {
            say(decision.console());
        }
        decision.log().forEach(this::log);
    }

    /** The run's last line, on the console only (console.log has every run's line). */
    void finished() {
        progress.quiet(false);
        progress.endStatus();
        progress.console().println("[inferbench] " + progress.label() + kind.runName() + " finished in "
                + Progress.duration(progress.elapsedSeconds()));
    }

    private void step(Cell cell, String what, boolean failed) {
        remainingCells.remove(cell);
        step++;
        progress.runFinished(step, what, failed, eta.secondsLeft(remainingCells, remainingJvms));
    }
}
