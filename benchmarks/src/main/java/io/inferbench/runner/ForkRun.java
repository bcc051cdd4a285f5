package io.inferbench.runner;

import io.inferbench.probe.CpuProbe;

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
     * @param cpu         where each measurement reads the CPU's use: {@link CpuProbe#system()} in a fork JVM
     * @return 0 when every cell was attempted, {@link #NO_SESSION} when none could be
     */
    public static int run(ForkPlan plan, PlanRunner runner, Consumer<ForkEvent> events, long mainEpochMs, CpuProbe cpu) {
        ForkSession fork;
        try {
            fork = ForkSession.open(plan, events, cpu);
        } catch (RuntimeException e) {
            events.accept(new ForkEvent.OpenFailed(String.valueOf(e.getMessage())));
            return NO_SESSION;
        }
        try (fork) {
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
}
