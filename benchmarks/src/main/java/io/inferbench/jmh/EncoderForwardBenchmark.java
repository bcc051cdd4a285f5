package io.inferbench.jmh;

import io.inferbench.measure.PassRecorder;
import io.inferbench.sweep.Cell;
import io.inferbench.sweep.CellTrial;
import io.inferbench.sweep.ForkSettings;
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
 * One forward pass of a model, timed pass by pass.
 *
 * <p>Why it is shaped like this:
 * <ol>
 *   <li><b>Every pass is timed on its own.</b> JMH's own modes time batches of calls or sample some of them;
 *       tails need every pass, so {@link #forwardPass()} times itself with {@code System.nanoTime} into an
 *       HdrHistogram ({@link PassRecorder}). JMH runs in {@link Mode#SingleShotTime} with a batch size equal to
 *       the pass count, which gives exact counts ({@code -Dbench.warmup}, {@code -Dbench.iterations}); JMH's
 *       own score is therefore the time of the whole batch, and {@code run.json} holds the per-pass figures.</li>
 *   <li><b>Warm-up is kept apart.</b> {@link #beginIteration} switches the recorder by JMH's iteration type,
 *       so warm-up passes land in their own histogram and never in the results.</li>
 *   <li><b>Set-up is outside the timed region.</b> Session creation, input tensors and the first pass (cold
 *       start) happen in the trial set-up, once per fork; each fork is a fresh JVM, so cold start is real.</li>
 *   <li><b>The result is consumed.</b> The backend reads the outputs inside the timed region and the checksum
 *       is returned to JMH, which sinks it into a blackhole.</li>
 * </ol>
 * The sweep runs each cell as its own JMH run (see {@link JmhCellExecutor}); starting this class by hand
 * without the sweep's system properties fails with a message saying so.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class EncoderForwardBenchmark {
    @Param("onnxruntime")
    public String backend;

    @Param("cpu")
    public String device;

    @Param("tiny")
    public String model;

    @Param("64")
    public int seqLen;

    @Param("1")
    public int batch;

    private CellTrial trial;
    private PassRecorder recorder;

    @Setup(Level.Trial)
    public void openSession() {
        trial = CellTrial.open(new Cell(backend, device, model, seqLen, batch), ForkSettings.fromProperties(System.getProperties()));
        recorder = trial.recorder();
    }

    @Setup(Level.Iteration)
    public void beginIteration(IterationParams iteration) {
        recorder.beginPhase(iteration.getType() == IterationType.WARMUP
                ? PassRecorder.Phase.WARMUP : PassRecorder.Phase.MEASUREMENT);
    }

    @Benchmark
    public long forwardPass() {
        return recorder.timePass(trial.session());
    }

    @TearDown(Level.Trial)
    public void persistAndClose() {
        if (trial != null) {
            try {
                trial.persist();
            } finally {
                trial.close();
            }
        }
    }
}
