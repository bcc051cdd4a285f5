package io.inferbench.runner;

import io.inferbench.jmh.CellBenchmark;
import io.inferbench.jmh.ForkJvmMain;
import io.inferbench.probe.CpuProbe;
import io.inferbench.probe.CpuTime;
import io.inferbench.probe.Probe;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs a fork in the test JVM instead of a fresh one, through the same {@link ForkRun} a fork JVM's main runs, and each
 * cell through the benchmark's own lifecycle as JMH drives it in a fork ({@link CellBenchmark}: its trial
 * set-up, one warm-up and one measurement iteration, its tear-down), without JMH's runner: fast enough for tests of the
 * sweep's bookkeeping. The fork JVM itself, with JMH inside it, is covered by the JMH end-to-end test.
 *
 * <p>A stop ({@link ForkExecutor.Next#STOP}) is honoured between cells, as the kill of a real fork JVM would be: no cell
 * begins after it, and nothing more of the fork's is written.
 */
public final class InProcessForkExecutor implements ForkExecutor {
    private static final IterationParams WARMUP = new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1);
    private static final IterationParams MEASUREMENT = new IterationParams(IterationType.MEASUREMENT, 1, TimeValue.seconds(1), 1);

    private final ForkRun.PlanRunner runner;
    private final CpuProbe cpu;

    public InProcessForkExecutor() {
        this(null);
    }

    /** @param runner drives the fork's cells in place of the benchmark (a test's own failures); null: the benchmark */
    public InProcessForkExecutor(ForkRun.PlanRunner runner) {
        this(runner, CpuProbe.system());
    }

    /**
     * @param runner drives the fork's cells in place of the benchmark; null: the benchmark
     * @param cpu    what each measurement reads of the CPU's use: a test's fake machine
     */
    public InProcessForkExecutor(ForkRun.PlanRunner runner, CpuProbe cpu) {
        this.runner = runner;
        this.cpu = cpu;
    }

    @Override
    public ForkExit run(ForkPlan plan, Path planFile, Path consoleLog, Listener listener) {
        long launch = System.currentTimeMillis();
        AtomicBoolean stopped = new AtomicBoolean();
        Set<String> begun = new HashSet<>();
        Consumer<ForkEvent> events = event -> {
            if (stopped.get()) {
                return;
            }
            if (event instanceof ForkEvent.CellStarted started) {
                begun.add(started.cellId());
            }
            if (listener.on(event) == Next.STOP) {
                stopped.set(true);
            }
        };
        ForkRun.PlanRunner cells = runner != null ? runner : fork -> runBenchmark(fork, stopped::get);
        // No watchdog in the test's own JVM: its handler halts the JVM, which here would be the test's.
        ForkPlan unguarded = new ForkPlan(plan.jvm(), plan.round(), plan.kind(), plan.backend(), plan.device(), plan.model(),
                plan.cells(), plan.session(), plan.policy(), plan.nvidiaSmi(), plan.jitCompilation());
        int code = ForkRun.run(unguarded, cells, events, launch,
                Probe.replacing(Probe.all(), new CpuTime(cpu, Runtime.getRuntime().availableProcessors())));
        if (!stopped.get()) {
            return new ForkExit(ProcessHandle.current().pid(), code, launch, "");
        }
        // A stopped fork JVM is killed and writes nothing more: take back what ForkRun wrote for the cells it never began.
        for (ForkPlan.PlannedCell planned : plan.cells()) {
            if (!begun.contains(plan.cell(planned).id())) {
                try {
                    Files.deleteIfExists(planned.outputDir().resolve(plan.fileName("error")));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return new ForkExit(ProcessHandle.current().pid(), 137, launch, "stopped by the sweep");
    }

    /** Each cell of the plan, in order, as JMH drives the benchmark; a failure ends its own cell only. */
    private static void runBenchmark(ForkSession fork, BooleanSupplier stop) {
        List<ForkPlan.PlannedCell> cells = fork.plan().cells();
        for (int i = 0; i < cells.size() && !stop.getAsBoolean(); i++) {
            CellBenchmark benchmark = new CellBenchmark();
            benchmark.backend = fork.plan().backend();
            benchmark.device = fork.plan().device();
            benchmark.model = fork.plan().model();
            benchmark.cell = ForkJvmMain.cellParameter(i, cells.get(i));
            try {
                benchmark.beginCell();
            } catch (RuntimeException e) {
                continue; // the cell was ended as failed; JMH reports it and goes on
            }
            try {
                benchmark.beginPhase(WARMUP);
                benchmark.phase();
                benchmark.beginPhase(MEASUREMENT);
                benchmark.phase();
            } catch (RuntimeException e) {
                // the phase ended the cell with its cause; JMH reports it and goes on to the tear-down
            }
            benchmark.endCell();
        }
    }
}
