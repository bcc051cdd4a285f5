package io.inferbench.runner;

import java.nio.file.Path;

/**
 * Runs one fork: a fresh JVM over a {@link ForkPlan}'s cells, in the plan's order ({@link JvmForkExecutor}). Each cell's
 * measurement, or its error, is left in the cell's folder; the events ({@link ForkEvent}) arrive while the fork runs, on
 * the calling thread, and the listener's answer to each says whether the fork goes on.
 */
public interface ForkExecutor {
    /**
     * Runs the fork to its end, or until the listener answers {@link Next#STOP}: then the JVM is destroyed at once (it
     * is between two cells: a stop is answered to a cell's end) and the cells it had not begun are left as they are.
     *
     * @param planFile   where {@code plan} has been written, for the fork to read
     * @param consoleLog the run's log, where everything the fork prints is appended
     * @param listener   every event the fork reports, as it happens
     */
    ForkExit run(ForkPlan plan, Path planFile, Path consoleLog, Listener listener) throws Exception;

    /**
     * This executor with every fork it starts pinned to the cores {@code cpus} names when it starts ({@code taskset -c}
     * list), as an A/B duet runs A and B ({@link DuetCpus}). An executor that starts no process (a test's, in this JVM)
     * cannot pin, and is itself.
     */
    default ForkExecutor pinned(java.util.function.Supplier<String> cpus) {
        return this;
    }

    /** Whether a fork goes on after an event. */
    enum Next { GO_ON, STOP }

    /** Follows a fork's events. */
    @FunctionalInterface
    interface Listener {
        Next on(ForkEvent event);
    }

    /**
     * How a fork ended.
     *
     * @param pid           the fork JVM's process id (-1 when it never started)
     * @param exitCode      the JVM's exit code: 0 when every cell was attempted, {@link ForkRun#NO_SESSION} when the session
     *                      could not be opened, anything else a crash or a stop
     * @param launchEpochMs when it was launched, in the machine's wall clock (for its start-up time)
     * @param outputTail    the last lines it printed, for an error message when it crashed
     * @param stoppedStuck  why the sweep killed the JVM as stuck (it printed nothing, not even its watchdog's heartbeat,
     *                      for too long), or null
     */
    record ForkExit(long pid, int exitCode, long launchEpochMs, String outputTail, String stoppedStuck, String paused) {
        /** A JVM that ended by itself, or was stopped between cells. */
        public ForkExit(long pid, int exitCode, long launchEpochMs, String outputTail) {
            this(pid, exitCode, launchEpochMs, outputTail, null, null);
        }

        /** A JVM the sweep killed as stuck ({@code stoppedStuck}), or that ended as it would. */
        public ForkExit(long pid, int exitCode, long launchEpochMs, String outputTail, String stoppedStuck) {
            this(pid, exitCode, launchEpochMs, outputTail, stoppedStuck, null);
        }
    }
}
