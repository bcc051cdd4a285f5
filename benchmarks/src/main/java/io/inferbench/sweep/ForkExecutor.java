package io.inferbench.sweep;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Runs one fork: a fresh JVM over a {@link ForkPlan}'s cells, in the plan's order ({@link JvmForkExecutor}). Each cell's
 * measurement, or its error, is left in the cell's folder; the events ({@link ForkEvent}) arrive while the fork runs, on
 * the calling thread, and are what the progress line shows.
 */
public interface ForkExecutor {
    /**
     * Runs the fork to its end.
     *
     * @param planFile   where {@code plan} has been written, for the fork to read
     * @param consoleLog the run's log, where everything the fork prints is appended
     * @param events     every event the fork reports, as it happens
     */
    ForkExit run(ForkPlan plan, Path planFile, Path consoleLog, Consumer<ForkEvent> events) throws Exception;

    /**
     * Thrown by an event consumer to stop the fork JVM now, between two cells (it is thrown on a cell's end): the
     * executor destroys the JVM and returns; the cells it had not begun are the caller's to run elsewhere.
     */
    final class Stop extends RuntimeException {
        public Stop(String why) {
            super(why);
        }
    }

    /**
     * How a fork ended.
     *
     * @param pid           the fork JVM's process id (-1 when it never started)
     * @param exitCode      the JVM's exit code: 0 when every cell was attempted, {@link ForkRun#NO_SESSION} when the session
     *                      could not be opened, anything else a crash
     * @param launchEpochMs when it was launched, in the machine's wall clock (for its start-up time)
     * @param outputTail    the last lines it printed, for an error message when it crashed
     */
    record ForkExit(long pid, int exitCode, long launchEpochMs, String outputTail) {
    }
}
