package io.inferbench.sweep;

import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Runs a fork in the test JVM instead of a fresh one, without JMH, through the same {@link ForkRun} and
 * {@link CellTrial} a fork JVM uses: fast enough for tests of the sweep's bookkeeping. The real path (a JVM per fork,
 * JMH inside it) is covered by the JMH end-to-end test.
 */
public final class InProcessForkExecutor implements ForkExecutor {
    private final ForkRun.PlanRunner runner;

    public InProcessForkExecutor() {
        this(ForkRun::runDirectly);
    }

    public InProcessForkExecutor(ForkRun.PlanRunner runner) {
        this.runner = runner;
    }

    @Override
    public ForkExit run(ForkPlan plan, Path planFile, Path consoleLog, Consumer<ForkEvent> events) {
        long launch = System.currentTimeMillis();
        int code = ForkRun.run(plan, runner, events, launch);
        return new ForkExit(ProcessHandle.current().pid(), code, launch, "");
    }
}
