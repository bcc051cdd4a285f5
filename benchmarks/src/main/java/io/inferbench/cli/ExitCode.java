package io.inferbench.cli;

/**
 * The exit codes of every command, distinct so that a CI gate can tell a finding from a mistake and from a crash.
 * README.md documents them; {@code .ci/run} checks them.
 */
public enum ExitCode {
    /** Every cell measured; no regression; the stored analysis reproduced. */
    OK(0),
    /** A finding: the sweep finished but a cell failed, {@code compare} found a regression, or {@code analyze} did not reproduce. */
    FINDING(1),
    /** Bad input or usage, found before anything was measured: an unknown property, a missing model, an unusable GPU, runs that are not comparable. */
    BAD_INPUT(2),
    /** A crash or a bug in inferbench itself: never a finding about the model, so never 1. */
    INTERNAL_ERROR(3);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
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
