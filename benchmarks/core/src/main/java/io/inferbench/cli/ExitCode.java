package io.inferbench.cli;

import io.inferbench.compare.GateDecision;

/**
 * The exit codes of every command, distinct so that a CI gate can tell a finding from a mistake and from a crash.
 * README.md documents them; {@code .ci/run} checks them.
 */
public enum ExitCode {
    /**
     * Every cell measured; no regression; the stored analysis reproduced, or {@code analyze} had nothing to reproduce
     * (it prints {@code NOT CHECKED} and why).
     */
    OK(0),
    /**
     * A finding: the run finished but a cell (a sweep's or a generation's) failed for the engine or the model, {@code compare}
     * found a regression, or {@code analyze} did not reproduce.
     */
    FINDING(1),
    /** Bad input or usage, found before anything was measured: an unknown property, a missing model, an unusable GPU, runs that are not comparable. */
    BAD_INPUT(2),
    /**
     * A crash or a bug in inferbench itself, also inside a cell ({@link io.inferbench.results.CellResult#HARNESS_CRASH}),
     * or a stage of a run that did not finish (run.json's {@code stages} names it, and keeps everything measured): never a
     * finding about the model, so never 1.
     */
    INTERNAL_ERROR(3),
    /**
     * Undecided: a comparison (an A/B run's pairs, {@code compare}, a run's {@code -Dbench.baseline}) could neither show
     * a regression nor rule one out in some cell (no interval, or one that reaches past the threshold), or the run the
     * {@code gate} read is one it cannot vouch for. Never a pass: the gate fails on it, saying what would decide it.
     */
    UNDECIDED(4);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /**
     * How a finished run ended, from what its {@code run.json} holds: a stage that did not finish for the harness, or a
     * cell that failed by a crash of inferbench, is {@link #INTERNAL_ERROR}; otherwise a cell that failed, a stage that the
     * code under test ended ({@link io.inferbench.results.StageResult#FAILED_IN_CODE}), or a regression against the
     * baseline or between an A/B run's subjects, is a {@link #FINDING}; otherwise a comparison that left a cell
     * undecided is {@link #UNDECIDED}; otherwise {@link #OK}.
     */
    public static ExitCode of(io.inferbench.results.RunResult run) {
        if (run.stages() != null && run.stages().stream().anyMatch(io.inferbench.results.StageResult::failedInHarness)
                || run.crashedCells() > 0) {
            return INTERNAL_ERROR;
        }
        boolean regressed = run.comparison() != null && run.comparison().regressed()
                || run.ab() != null && Boolean.TRUE.equals(run.ab().regressed());
        if (run.failedCells() > 0 || regressed || !run.failedStages().isEmpty()) {
            return FINDING;
        }
        boolean undecided = run.comparison() != null && !GateDecision.NO_REGRESSION.label().equals(run.comparison().decision())
                || run.ab() != null && !GateDecision.NO_REGRESSION.label().equals(run.ab().decision());
        return undecided ? UNDECIDED : OK;
    }

    /** The code a finished child process reported, or {@link #INTERNAL_ERROR} for anything that is not one of ours (a JVM crash, a kill). */
    public static ExitCode of(int code) {
        for (ExitCode exit : values()) {
            if (exit.code == code) {
                return exit;
            }
        }
        return INTERNAL_ERROR;
    }
}
