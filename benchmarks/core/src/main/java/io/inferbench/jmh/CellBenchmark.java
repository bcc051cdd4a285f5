package io.inferbench.jmh;

import io.inferbench.measure.PassRecorder;
import io.inferbench.runner.CellTrial;
import io.inferbench.runner.ForkPlan;
import io.inferbench.runner.ForkRun;
import io.inferbench.runner.ForkSession;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.util.concurrent.TimeUnit;

/**
 * One cell in one fork, of any kind ({@link io.inferbench.runner.CellKind}: a forward pass, a generation): its warm-up
 * until steady, then its measurement until precise, every unit timed on its own into an HdrHistogram
 * ({@link PassRecorder}). JMH runs {@link Mode#SingleShotTime}, one invocation a phase, and {@link #phase()} runs the
 * whole phase by the warm-up and stop rules, so JMH's own score is a phase's wall time, not a pass's: {@code run.json}
 * holds the per-pass figures. The cells are the values of {@link #cell}, in the fork's seeded order, one JMH run per
 * fork JVM. docs/architecture.md ("One cell under JMH") says why each of these.
 *
 * <p>It runs inside a fork JVM with JMH's {@code forks(0)} ({@link ForkJvmMain}); starting it by hand fails with a
 * message saying so.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class CellBenchmark {
    /** The fork's engine; like the device and model, always given by the fork's plan ({@link ForkJvmMain}). */
    @Param("set-by-the-fork-plan")
    public String backend;

    @Param("set-by-the-fork-plan")
    public String device;

    @Param("set-by-the-fork-plan")
    public String model;

    /** The cell: {@code NNN:seqS/batchB}, its place in the fork's order first ({@link ForkJvmMain#cellParameter}). */
    @Param("000:seq64/batch1")
    public String cell;

    private CellTrial trial;
    private PassRecorder.Phase phase = PassRecorder.Phase.WARMUP;

    /**
     * Begins the cell. A failure here (the cell's preparation or its first unit) has ended the cell with its cause
     * already, and is not thrown on to JMH: JMH, run without forks, does not tear down a trial whose set-up threw, and
     * would give the next cell this one's state (the bug that failed healthy cells after a failing one). The phases
     * of a cell that failed do nothing.
     */
    @Setup(Level.Trial)
    public void beginCell() {
        ForkSession fork = ForkSession.current();
        ForkPlan plan = fork.plan();
        if (!plan.backend().equals(backend) || !plan.device().equals(device) || !plan.model().equals(model)) {
            throw new IllegalStateException("the benchmark's parameters " + backend + "/" + device + "/" + model
                    + " are not this fork's session " + plan.backend() + "/" + plan.device() + "/" + plan.model());
        }
        int[] shape = ForkJvmMain.shape(cell);
        try {
            trial = fork.beginCell(shape[0], shape[1]);
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError fatal) {
                ForkRun.haltUnusable(fatal);
            }
            trial = fork.currentTrial();
        }
    }

    @Setup(Level.Iteration)
    public void beginPhase(IterationParams iteration) {
        phase = iteration.getType() == IterationType.WARMUP ? PassRecorder.Phase.WARMUP : PassRecorder.Phase.MEASUREMENT;
    }

    /**
     * A failure ends the cell with its cause and is not thrown on to JMH (see {@link #beginCell}); a cell that has
     * ended does nothing. After a {@link VirtualMachineError} (out of memory, a stack overflow) the fork JVM stops, and
     * the sweep measures its other cells in a fresh one.
     */
    @Benchmark
    public long phase() {
        if (trial.ended()) {
            return 0;
        }
        try {
            return trial.run(phase);
        } catch (RuntimeException | Error e) {
            trial.end(e);
            if (e instanceof VirtualMachineError fatal) {
                ForkRun.haltUnusable(fatal);
            }
            return 0;
        }
    }

    @TearDown(Level.Trial)
    public void endCell() {
        if (trial != null) {
            trial.end(null);
        }
    }
}
