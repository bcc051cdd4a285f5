package io.inferbench.results;

/**
 * One stage of a run, as {@code run.json}'s {@code stages} lists them in the order they ran: the preflight, the sweep,
 * then what was asked for after it, and the report.
 *
 * @param status  {@value #OK}; {@value #FAILED}, with {@code error}; {@value #FAILED_IN_CODE}, where the code it
 *                measured ended it (a target's call that never returned while serving, or exited its JVM); or
 *                {@value #NOT_RUN}, with {@code error} saying which stage it needed
 * @param seconds its wall time, from its start to its end
 * @param error   why it failed or did not run; null when it ran
 */
public record StageResult(String name, String status, double seconds, String error) {
    public static final String OK = "ok";
    public static final String FAILED = "failed";
    public static final String NOT_RUN = "not run";
    public static final String FAILED_IN_CODE = "failed in the code under test";

    /** It failed for the harness or the machine, not for the code it measured: a crash of inferbench, never a finding. */
    public boolean failedInHarness() {
        return failed() && !FAILED_IN_CODE.equals(status);
    }

    /** It did not end as it should: it failed, or could not run for a stage it needed. */
    public boolean failed() {
        return !OK.equals(status);
    }
}
