package io.inferbench.runner;

import java.util.List;
import java.util.Map;

/**
 * What one job's fork JVM did, from its exit and its events ({@link ForkWatch}): which of its cells it ended (each
 * measured, or failed inside the fork), the one it was measuring when it ended, the ones it never reached, and why it
 * ended. The sweep records it ({@link SweepState#record}), and the rules ({@link ForkRule}) read it.
 *
 * @param jvm          how the JVM ran and ended; null when no JVM ran: none of the job's cells was left to measure
 * @param ended        the ids of the cells the fork ended itself, measured or failed, in their order
 * @param unreached    the cells a JVM that opened its session never began, in their order
 * @param p50sMs       the p50 of each cell it measured, as its event reported it, by cell id
 * @param cellSeconds  wall time from each cell's start to its end, summed: the rest of the JVM's wall is overhead
 */
public record ForkOutcome(ForkJob job, Jvm jvm, List<String> ended, List<Cell> unreached, Map<String, Double> p50sMs,
                          double wallSeconds, double cellSeconds) {

    /**
     * How one JVM ran and ended.
     *
     * @param plan          what the JVM was given
     * @param exit          how the JVM ended
     * @param launchFailure why the JVM could not be started at all, or null
     * @param ready         the session opened (its cold start), or null when it did not
     * @param openError     why the session could not be opened, as the fork said; null otherwise
     * @param running       the id of the cell begun and not ended when the JVM ended: a crash inside it; null otherwise
     * @param stoppedAsSlow why the sweep stopped the JVM as slow ({@link SlowJvm}), or null
     */
    public record Jvm(ForkPlan plan, ForkExecutor.ForkExit exit, String launchFailure, ForkEvent.Ready ready,
                      String openError, String running, String stoppedAsSlow) {
    }

    public ForkOutcome {
        ended = List.copyOf(ended);
        unreached = List.copyOf(unreached);
        p50sMs = Map.copyOf(p50sMs);
    }

    /** A job none of whose cells was left to measure (each failed in an earlier round): no JVM ran. */
    static ForkOutcome noJvm(ForkJob job) {
        return new ForkOutcome(job, null, List.of(), List.of(), Map.of(), 0, 0);
    }

    /** What the JVM was given; null when no JVM ran. */
    public ForkPlan plan() {
        return jvm == null ? null : jvm.plan();
    }

    /** How the JVM ended; null when none ran. */
    public ForkExecutor.ForkExit exit() {
        return jvm == null ? null : jvm.exit();
    }

    /** Why the JVM could not be started at all, or null. */
    public String launchFailure() {
        return jvm == null ? null : jvm.launchFailure();
    }

    /** The session opened (its cold start), or null when it did not. */
    public ForkEvent.Ready ready() {
        return jvm == null ? null : jvm.ready();
    }

    /** Why the session could not be opened, as the fork said; null otherwise. */
    public String openError() {
        return jvm == null ? null : jvm.openError();
    }

    /** The id of the cell begun and not ended when the JVM ended, or null. */
    public String running() {
        return jvm == null ? null : jvm.running();
    }

    /** Why the sweep stopped the JVM as slow, or null. */
    public String stoppedAsSlow() {
        return jvm == null ? null : jvm.stoppedAsSlow();
    }

    public boolean ranJvm() {
        return plan() != null;
    }

    /** The JVM opened its session. */
    public boolean opened() {
        return ready() != null;
    }

    public boolean ended(Cell cell) {
        return ended.contains(cell.id());
    }

    /** The JVM opened its session and began none of its cells: another JVM would only do the same again. */
    public boolean ranNoneOfItsCells() {
        return opened() && unreached.size() == job.cells().size();
    }

    /** Why the JVM did not end {@code cell} itself, for the cell's error. */
    public String whyNotEnded(Cell cell) {
        if (ranNoneOfItsCells()) {
            return "the fork JVM (exit code " + exit().exitCode() + ") opened its session but ran none of its cells; "
                    + "see console.log. Its last output: " + exit().outputTail();
        }
        if (launchFailure() != null) {
            return "the fork JVM could not be run: " + launchFailure();
        }
        if (!opened()) {
            return openError() != null ? openError() : "the fork JVM " + JvmDeath.describe(exit())
                    + " before opening its session; its last output: " + exit().outputTail();
        }
        String last = lastLines(exit().outputTail(), 3);
        return "the fork JVM " + JvmDeath.describe(exit()) + " while measuring this cell (see console.log)"
                + (last.isEmpty() ? "" : "; its last output: " + last);
    }

    /** The JVM was killed from outside while it ran ({@link JvmDeath#killedFromOutside}). */
    public boolean killedFromOutside() {
        return exit() != null && launchFailure() == null && JvmDeath.killedFromOutside(exit(), stoppedAsSlow());
    }

    /** The cell the JVM was measuring when it ended, or null. */
    public Cell runningCell() {
        return running() == null ? null : job.cells().stream().filter(c -> c.id().equals(running())).findFirst().orElse(null);
    }

    static String lastLines(String text, int lines) {
        // JMH's own header lines ("# ...") say nothing of why the JVM ended.
        String[] all = text.strip().lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toArray(String[]::new);
        return String.join(" | ", java.util.Arrays.asList(all).subList(Math.max(0, all.length - lines), all.length));
    }

    /** Why the JVM ended early, for run.json's {@code forkJvms}; null when it did not. */
    public String jvmError() {
        if (stoppedAsSlow() != null) {
            return io.inferbench.results.ForkJvm.STOPPED_AS_SLOW + stoppedAsSlow();
        }
        if (launchFailure() != null) {
            return launchFailure();
        }
        if (exit().exitCode() == 0 && exit().stoppedStuck() == null) {
            return null;
        }
        return openError() != null ? openError() : "exit code " + exit().exitCode() + ": the JVM " + JvmDeath.describe(exit())
                + (running() != null ? " while measuring " + running() : "");
    }

    /** From the JVM's launch to its {@code main}, in the machine's wall clock; null when it never got there. */
    public Double jvmStartMs() {
        return ready() == null ? null : (double) Math.max(0, ready().mainEpochMs() - exit().launchEpochMs());
    }
}
