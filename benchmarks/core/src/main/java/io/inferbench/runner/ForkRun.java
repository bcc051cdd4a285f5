package io.inferbench.runner;

import io.inferbench.probe.Probe;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * What a fork JVM does with its plan: open the one session, let the {@link PlanRunner} run every cell of the plan in
 * its order (JMH, driving {@code io.inferbench.jmh.CellBenchmark}), then end what the runner left open and
 * account for any cell it never began. Each cell's start and end are reported as {@link ForkEvent}s as they happen, and
 * each cell's measurement or error is written to its folder. A cell that fails does not stop the ones after it.
 */
public final class ForkRun {
    /** Exit code of a fork whose session could not be opened: bad input, like every set-up failure. */
    public static final int NO_SESSION = 2;
    /**
     * Exit code of a fork that stopped itself after an {@link Error} in a cell (out of memory, a stack overflow): the
     * cell is failed with it, and the JVM is no longer fit to measure the others, which the sweep runs in a fresh one.
     */
    public static final int UNUSABLE = 86;
    /** Exit code of a fork whose call ran past the call timeout ({@link CallWatchdog}): the cell failed as timed out. */
    public static final int TIMED_OUT = 87;
    /** Exit code of a fork that found the sweep's JVM gone: nobody would read what it measured. */
    public static final int PARENT_GONE = 88;

    /**
     * Runs every cell of the fork's plan, in the plan's order: for each, {@link ForkSession#beginCell}, both phases of the
     * {@link CellTrial}, and {@link CellTrial#end}. A failure inside one cell should end that cell and go on.
     */
    @FunctionalInterface
    public interface PlanRunner {
        void run(ForkSession fork) throws Exception;
    }

    private ForkRun() {
    }

    /**
     * @param mainEpochMs when the JVM's {@code main} started, for the sweep's account of JVM start-up
     * @param probes      what each measurement reads around its passes: {@link Probe#all()} in a fork JVM
     * @return 0 when every cell was attempted, {@link #NO_SESSION} when none could be
     */
    public static int run(ForkPlan plan, PlanRunner runner, Consumer<ForkEvent> events, long mainEpochMs, List<Probe<?>> probes) {
        AtomicReference<ForkSession> opened = new AtomicReference<>();
        // A fork JVM of its own (a guard) beats, watches the sweep's JVM and bounds each call; one in a test's JVM does none.
        Halting halting = new Halting(plan, events, opened);
        Heartbeat heartbeat = plan.guard() == null ? null : new Heartbeat();
        ParentWatch parent = plan.guard() == null ? null : ParentWatch.start(plan.guard().parentPid(), halting::parentGone);
        CallWatchdog watchdog = plan.guard() == null ? CallWatchdog.unwatched()
                : new CallWatchdog(plan.guard().callTimeoutSeconds(), halting);
        ForkSession fork;
        try {
            fork = ForkSession.open(plan, events, probes, watchdog);
        } catch (RuntimeException e) {
            try (heartbeat; parent; watchdog) {
                events.accept(new ForkEvent.OpenFailed(String.valueOf(e.getMessage())));
            }
            return NO_SESSION;
        }
        opened.set(fork);
        try (heartbeat; parent; watchdog; fork) {
            events.accept(new ForkEvent.Ready(mainEpochMs, fork.engineLoadMs(), fork.sessionCreateMs(), fork.coldStart().sessionRssMb()));
            Throwable failure = null;
            try {
                runner.run(fork);
            } catch (Throwable e) {
                failure = e;
            }
            CellTrial last = fork.currentTrial();
            if (last != null && !last.ended()) {
                last.end(failure != null ? failure : new IllegalStateException(last.cell().id() + " was never ended"));
            }
            for (ForkPlan.PlannedCell planned : plan.cells()) {
                Cell cell = plan.cell(planned);
                if (!fork.begun(cell)) {
                    Throwable why = failure != null ? failure : new IllegalStateException(cell.id()
                            + " was never begun by the benchmark (see console.log)");
                    CellTrial.writeError(planned.outputDir(), plan, why, fork.backend());
                    events.accept(new ForkEvent.CellFailed(cell.id(), String.valueOf(why.getMessage())));
                }
            }
        }
        return 0;
    }

    /**
     * Ends the fork JVM at once after {@code error} ended its cell: an {@link Error} (out of memory, a stack overflow)
     * leaves a JVM whose later measurements could not be trusted, so its other cells go to a fresh one
     * ({@link CrashRestart}). Halts: no shutdown hook or finalizer runs user code again.
     */
    public static void haltUnusable(Error error) {
        endChildren();
        System.out.flush();
        System.err.println("[inferbench] this fork JVM stops after " + error + "; the sweep runs its other cells in a fresh one");
        System.err.flush();
        Runtime.getRuntime().halt(UNUSABLE);
    }

    /** What the fork's guards do: fail the stuck cell (or the session) as timed out and halt; halt when orphaned. */
    private record Halting(ForkPlan plan, Consumer<ForkEvent> events, AtomicReference<ForkSession> opened)
            implements CallWatchdog.Handler {
        @Override
        public void timedOut(CallWatchdog.Timeout timeout) {
            ForkSession fork = opened.get();
            if (fork == null) {
                events.accept(new ForkEvent.OpenFailed(timeout.message()));
            } else {
                fork.failStuck(new CellFault(timeout.message()));
            }
            System.err.println("[inferbench] " + timeout.message());
            System.err.flush();
            endChildren();
            System.out.flush();
            Runtime.getRuntime().halt(fork == null ? NO_SESSION : TIMED_OUT);
        }

        void parentGone(long parentPid) {
            System.err.println("[inferbench] the sweep's JVM (pid " + parentPid + ") is gone: this fork JVM stops");
            System.err.flush();
            endChildren();
            Runtime.getRuntime().halt(PARENT_GONE);
        }
    }

    /**
     * Ends every process this fork JVM started (the user's code may start a server, a {@code sleep}), before the JVM
     * halts or exits: nothing it started outlives it. The sweep ends what it saw too ({@link JvmForkExecutor}), which
     * also covers a fork killed from outside.
     */
    public static void endChildren() {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
    }
}
