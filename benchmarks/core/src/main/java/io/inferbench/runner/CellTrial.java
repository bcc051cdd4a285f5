package io.inferbench.runner;

import io.inferbench.engine.Engines;
import io.inferbench.engine.FailureKind;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.measure.CellLoop;
import io.inferbench.measure.ForegroundJit;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.JitClock;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.probe.MemoryUse;
import io.inferbench.results.CellResult;
import io.inferbench.results.Json;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One cell's life inside one fork JVM, independent of JMH: begun by {@link ForkSession#beginCell} (inputs prepared,
 * first pass at the shape timed), warmed up until steady and measured until precise ({@link CellLoop}, one call per
 * phase), then ended: what it measured is written as {@code fork-r<round>-jvm<NNN>.json} in the cell's folder, or why it
 * failed as {@code fork-r<round>-jvm<NNN>.error} ({@link ForkPlan#fileName}). Exactly one of the two is written per cell and fork.
 */
public final class CellTrial {
    private static final double NS_PER_MS = 1_000_000.0;
    private final ForkSession fork;
    private final Cell cell;
    private final Path outputDir;
    private final int position;
    private final double firstPassMs;
    private final PassRecorder recorder;
    private final CellLoop loop;
    private final KindSession.Unit unit;
    /** {@link #unit} as the loop runs it, telling the fork's watchdog of each unit's end. */
    private final io.inferbench.measure.Pass watched;
    private WarmupOutcome warmup;
    private MeasureOutcome measurement;
    private boolean ended;
    private final MemoryUse.Reader memoryProbe;
    private final double rssStartMb;
    private final boolean peakReset;
    private MemoryUse memory;
    /** Open from the start of the warm-up to the end of the measurement, with {@link JitCompilation#FOREGROUND}. */
    private ForegroundJit foregroundJit;

    /**
     * @param recorder   the cell's recorder, which its unit records its phases into
     * @param unit       the cell's unit at its shape, its first run already timed
     * @param rssStartMb the resident set when the cell began, before its inputs were prepared
     * @param peakReset  whether the resident set's peak was reset then (so the peak read at the end is this cell's)
     */
    CellTrial(ForkSession fork, Cell cell, Path outputDir, int position, double firstPassMs, PassRecorder recorder,
              KindSession.Unit unit, MemoryUse.Reader memoryProbe, double rssStartMb, boolean peakReset) {
        this.recorder = recorder;
        this.unit = unit;
        this.memoryProbe = memoryProbe;
        this.rssStartMb = rssStartMb;
        this.peakReset = peakReset;
        this.fork = fork;
        this.cell = cell;
        this.outputDir = outputDir;
        this.position = position;
        this.firstPassMs = firstPassMs;
        this.loop = new CellLoop(recorder, fork.plan().policy(), NanoClock.SYSTEM, JitClock.jvm(), fork.probes(),
                fork.plan().session().intraOpThreads(), cell.batch());
        this.watched = unit == null ? null : watched(unit, fork.watchdog());
    }

    /** The unit as the loop runs it: each unit's end, after its clock is read, is progress for the watchdog. */
    private static io.inferbench.measure.Pass watched(KindSession.Unit unit, CallWatchdog watchdog) {
        return new io.inferbench.measure.Pass() {
            @Override
            public long forward() {
                return unit.forward();
            }

            @Override
            public void beforeTimed() {
                unit.beforeTimed();
            }

            @Override
            public void afterTimed() {
                unit.afterTimed();
                watchdog.progress();
            }
        };
    }

    /** A cell whose first unit failed: it can only be ended as failed. */
    static CellTrial failedToBegin(ForkSession fork, Cell cell, Path outputDir, int position) {
        return new CellTrial(fork, cell, outputDir, position, Double.NaN, new PassRecorder(), null, MemoryUse.Reader.self(),
                Double.NaN, false);
    }

    public Cell cell() {
        return cell;
    }

    /**
     * Runs one phase to its end by its rule: the warm-up, then the measurement.
     *
     * @return the sum of the passes' output checksums, for a blackhole
     */
    public long run(PassRecorder.Phase phase) {
        if (ended) {
            throw new IllegalStateException(cell.id() + " has already ended");
        }
        if (phase == PassRecorder.Phase.WARMUP) {
            if (fork.plan().jitCompilation() == JitCompilation.FOREGROUND && foregroundJit == null) {
                foregroundJit = ForegroundJit.open();
            }
            warmup = loop.warmUp(watched);
            if (foregroundJit != null) {
                foregroundJit.warmupEnded();
            }
        } else {
            if (warmup == null) {
                throw new IllegalStateException(cell.id() + ": the measurement must follow the warm-up");
            }
            if (foregroundJit != null) {
                foregroundJit.awaitIdleCompilers();
            }
            // Waiting for the compilers is no call of the unit's: its clock starts with the measurement.
            fork.watchdog().progress();
            MemoryUse.Measured atStart = new MemoryUse.Measured(memoryProbe.rssMb(), MemoryUse.directMb(), Double.NaN);
            measurement = loop.measure(watched, fork.plan().kind().remeasuresDisturbed() ? CellLoop.MAX_REMEASURES : 0);
            closeForegroundJit();
            memory = memoryProbe.end(rssStartMb, peakReset, Double.isNaN(atStart.rssStartMb()) ? null : atStart);
            if (measurement.gpu() != null && measurement.gpu().unavailable() == null) {
                // This process's GPU memory, asked once the measurement is over (a short nvidia-smi call).
                measurement = measurement.withGpu(measurement.gpu().withProcessMemoryMb(
                        fork.gpu().processMemoryMb(ProcessHandle.current().pid())));
            }
        }
        return loop.checksum();
    }

    /** Both phases ran to their end. */
    public boolean complete() {
        return warmup != null && measurement != null;
    }

    public boolean ended() {
        return ended;
    }

    public WarmupOutcome warmup() {
        return warmup;
    }

    public MeasureOutcome measurement() {
        return measurement;
    }

    /** The measured passes so far, in milliseconds. */
    public LatencySummary latency() {
        return LatencySummary.of(recorder.measuredNs());
    }

    public ForkMeasurement forkMeasurement() {
        Map<String, String> phases = new LinkedHashMap<>();
        recorder.phasesNs().forEach((phase, h) -> phases.put(phase, HistogramCodec.encode(h)));
        Object output = unit.output();
        ForkMeasurement.Histograms histograms = new ForkMeasurement.Histograms(HistogramCodec.encode(recorder.warmupNs()),
                HistogramCodec.encode(recorder.measuredNs()), recorder.discardedNs().getTotalCount() == 0 ? null
                : HistogramCodec.encode(recorder.discardedNs()));
        return new ForkMeasurement(cell.id(), ProcessHandle.current().pid(), fork.plan().round(), position, fork.coldStart(),
                firstPassMs, warmup, measurement, memory, histograms, fork.session().facts(),
                new ForkMeasurement.Phases(phases.isEmpty() ? null : phases,
                        output == null ? null : Json.mapper().valueToTree(output), unit.phaseMarkCostNs()));
    }

    /**
     * Ends the cell: writes its measurement atomically when both phases completed, else writes {@code why} (or that the
     * run stopped early) as its error; then reports {@code done} or {@code failed}. Idempotent.
     */
    public synchronized void end(Throwable why) {
        if (ended) {
            return;
        }
        ended = true;
        fork.watchdog().end();
        closeForegroundJit();
        if (why == null && complete()) {
            try {
                ForkMeasurement m = forkMeasurement();
                RunStore.writeAtomically(outputDir.resolve(fork.plan().fileName("json")), out -> Json.mapper().writeValue(out, m));
            } catch (RuntimeException e) {
                // Not written: the cell fails with why, and nothing is thrown on to JMH (CellBenchmark).
                fork.report(new ForkEvent.CellFailed(cell.id(), writeError(outputDir, fork.plan(), e, fork.backend())));
                return;
            }
            LatencySummary latency = latency();
            Map<String, Double> phasesP50Ms = new LinkedHashMap<>();
            unit.summaryPhases().stream().filter(p -> recorder.phasesNs().containsKey(p))
                    .forEach(p -> phasesP50Ms.put(p, recorder.phasesNs().get(p).getValueAtPercentile(50) / NS_PER_MS));
            fork.report(new ForkEvent.CellDone(cell.id(), warmup.passes(), warmup.end(), measurement.passes(),
                    measurement.end(), measurement.p50HalfWidthPercent(), latency.p50Ms(), latency.p99Ms(),
                    measurement.cpu() == null ? null : measurement.cpu().utilisationPercent(),
                    measurement.cpu() == null ? null : measurement.cpu().otherProcessesPercent(),
                    phasesP50Ms.isEmpty() ? null : phasesP50Ms));
        } else {
            Throwable error = why != null ? why : new IllegalStateException(cell.id()
                    + ": the benchmark run ended before the measurement finished (see console.log)");
            fork.report(new ForkEvent.CellFailed(cell.id(), writeError(outputDir, fork.plan(), error, fork.backend())));
        }
    }

    /** Compiles go back to the background: writing the results is not measured, and need not wait for the JIT. */
    private void closeForegroundJit() {
        if (foregroundJit != null) {
            foregroundJit.close();
        }
    }

    /**
     * Writes why a cell failed in a fork, with the stack trace, where its measurement would have gone. A failure that
     * {@code engine} does not recognise as a refusal, its own or memory ({@link Engines#classify}), and that is not a
     * {@link CellFault} (a timeout, a JVM that exited or was killed), is a crash of inferbench itself, and its first line
     * says so ({@link CellResult#HARNESS_CRASH}).
     *
     * @param engine the fork's engine; null when none was made (the JVM died, or the engine did not start)
     */
    static String writeError(Path dir, ForkPlan plan, Throwable error, InferenceEngine engine) {
        StringWriter trace = new StringWriter();
        error.printStackTrace(new PrintWriter(trace));
        String first = firstLine(error, engine);
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(plan.fileName("error")), error instanceof CellFault ? first + "\n"
                    : first + "\n\n" + trace, StandardCharsets.UTF_8);
        } catch (IOException e) {
            error.addSuppressed(e);
        }
        return first;
    }

    /** The cell's error as run.json and the console say it: what happened, with the fix where there is one. */
    static String firstLine(Throwable error, InferenceEngine engine) {
        FailureKind kind = error instanceof CellFault ? null : Engines.classify(engine, error);
        boolean harness = !(error instanceof CellFault) && kind == null;
        return harness ? CellResult.HARNESS_CRASH + " (" + error.getClass().getName() + "): " + error.getMessage()
                : error instanceof OutOfMemoryError ? "out of memory in the fork JVM (" + error.getMessage() + "): this "
                + "cell's shape needs more than the JVM's heap. Give the forks more (-Dbench.jvmArgs=-Xmx16g), or lower "
                + "-Dbench.batch or -Dbench.seq; the fork JVM stopped and the other cells went on in a fresh one"
                : String.valueOf(error.getMessage());
    }
}
