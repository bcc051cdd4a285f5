package io.inferbench.runner;

import io.inferbench.engine.Device;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.measure.CellLoop;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.ForegroundJit;
import io.inferbench.measure.PassRecorder;
import io.inferbench.model.ModelSource;
import io.inferbench.probe.CompilerThreads;
import io.inferbench.probe.Probe;
import io.inferbench.probe.GpuSampler;
import io.inferbench.probe.MemoryUse;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The one session of a fork JVM, of its plan's cell kind ({@link CellKind#open}: an engine's session for forward passes,
 * a decoder for generation), held for the JVM's lifetime and shared by every cell of its plan: one session
 * serves every shape. Each cell gets its unit at its shape ({@link #beginCell}) and its own warm-up
 * and measurement ({@link CellTrial}).
 *
 * <p><b>Why one session for many shapes is still each shape's steady state.</b> What a fresh JVM adds to early passes
 * (class loading, JIT compilation, the engine's first allocations) is paid once per JVM; what a new shape adds
 * (allocations of its size, kernel choices) is paid at that cell's first pass, which is timed on its own, and in its
 * warm-up, which goes on until latency stops falling and the JIT is quiet. What a cell inherits from the cells before it
 * (the allocator's state, the caches) is spread over the forks by running the cells in a different seeded order in
 * every round, so that fork-to-fork spread, which {@code compare} uses, includes it.
 *
 * <p>On CUDA the JVM also holds one {@link GpuSampler} (an nvidia-smi process sampling the device at 10 Hz), started
 * after the session so its start is in no cold-start figure, and asked after each measurement what the GPU did.
 *
 * <p>Cold start is measured once per JVM, in order: engine load, session creation, and the first pass of the first cell
 * (at that cell's shape).
 *
 * <p>The instance is reachable from the JMH benchmark through {@link #current()}: JMH creates its state objects per
 * run, and a run per cell, so a session that outlives them lives here.
 */
public final class ForkSession implements AutoCloseable {
    private static final double NS_PER_MS = 1_000_000.0;
    /** Synthetic passes the rules are primed with before the first cell ({@link CellLoop#primeRules}). */
    static final int PRIME_PASSES = 8_000;
    private static volatile ForkSession current;

    private final ForkPlan plan;
    private final Consumer<ForkEvent> events;
    private final CallWatchdog watchdog;
    private final Set<Cell> begun = new HashSet<>();
    private final InferenceEngine backend;
    private final KindSession session;
    private final double engineLoadMs;
    private final double sessionCreateMs;
    private Double firstInferenceMs;
    private int nextPosition;
    private CellTrial trial;
    /** The cell {@link #beginCell} is preparing, before its trial exists: what a timeout there fails. */
    private volatile ForkPlan.PlannedCell beginning;
    private boolean closed;
    /** The resident set just before and after the session was created (MiB): what session creation added. */
    private Double rssBeforeSessionMb;
    private Double rssAfterSessionMb;
    /** The GPU's sampler on CUDA; null on the CPU. */
    private GpuSampler gpu;
    /** What each measurement reads around its passes ({@link Probe#all()}, or a test's own). */
    private List<Probe<?>> probes;

    private ForkSession(ForkPlan plan, Consumer<ForkEvent> events, CallWatchdog watchdog, InferenceEngine backend,
                        KindSession session, double engineLoadMs, double sessionCreateMs) {
        this.plan = plan;
        this.events = events;
        this.watchdog = watchdog;
        this.backend = backend;
        this.session = session;
        this.engineLoadMs = engineLoadMs;
        this.sessionCreateMs = sessionCreateMs;
    }

    /**
     * Loads the engine and opens the session, timing both, and makes it {@link #current()}. On failure, writes the
     * error into every cell's folder (no cell of this plan can run), then rethrows.
     *
     * @param events   where each cell's start and end are reported ({@link ForkEvent})
     * @param probes   what each measurement reads around its passes: {@link Probe#all()} in a fork JVM (the fork adds
     *                 the GPU's sampler on CUDA, last)
     * @param watchdog what holds the session's opening, each cell's preparation and each unit to the call timeout
     */
    public static ForkSession open(ForkPlan plan, Consumer<ForkEvent> events, List<Probe<?>> probes, CallWatchdog watchdog) {
        InferenceEngine backend = null;
        watchdog.begin("opening the " + plan.backend() + " session of model " + plan.model() + " on " + plan.device());
        try {
            ModelSource source = ModelSource.parse(plan.model());
            backend = plan.session().backend(plan.backend());
            long t0 = System.nanoTime();
            if (plan.kind().sharesThreadPool()) {
                // Before anything else of the engine's: its pools are made with its first native state.
                backend.shareThreadPool(plan.session().intraOpThreads(), plan.session().interOpThreads());
            }
            backend.engineVersion();
            long t1 = System.nanoTime();
            double rssBefore = MemoryUse.Reader.self().rssMb();
            KindSession session = plan.kind().open(backend, plan.session().spec(source, plan.device()), plan.round());
            long t2 = System.nanoTime();
            double rssAfter = MemoryUse.Reader.self().rssMb();
            CellLoop.primeRules(PRIME_PASSES);
            if (plan.jitCompilation() == JitCompilation.FOREGROUND) {
                // Refused here, before any cell, by a JVM without HotSpot's compiler directives: not at every cell.
                ForegroundJit.open().close();
                CompilerThreads.ofThisJvm().prime();
            }
            ForkSession fork = new ForkSession(plan, events, watchdog, backend, session, (t1 - t0) / NS_PER_MS,
                    (t2 - t1) / NS_PER_MS);
            fork.probes = List.copyOf(probes);
            fork.rssBeforeSessionMb = Double.isNaN(rssBefore) ? null : rssBefore;
            fork.rssAfterSessionMb = Double.isNaN(rssAfter) ? null : rssAfter;
            Device used = Device.parse(plan.device());
            if (used.isCuda()) {
                fork.gpu = GpuSampler.start(plan.nvidiaSmi(), used.index());
            }
            current = fork;
            watchdog.end();
            return fork;
        } catch (RuntimeException e) {
            watchdog.end();
            for (ForkPlan.PlannedCell cell : plan.cells()) {
                CellTrial.writeError(cell.outputDir(), plan, e, backend);
            }
            throw e;
        }
    }

    /** The session of this JVM; only a fork JVM started by the sweep has one. */
    public static ForkSession current() {
        ForkSession fork = current;
        if (fork == null) {
            throw new IllegalStateException("No fork session in this JVM: the benchmark runs inside a fork JVM that the sweep "
                    + "starts (mvn verify), not by hand");
        }
        return fork;
    }

    public ForkPlan plan() {
        return plan;
    }

    public double engineLoadMs() {
        return engineLoadMs;
    }

    public double sessionCreateMs() {
        return sessionCreateMs;
    }

    /**
     * Starts a cell of the plan: reports its start, prepares its unit's inputs (outside any timed region) and times its
     * first unit at this shape, whose phases no histogram keeps. A previous cell still open is ended first, as failed: whatever drove it stopped before its end
     * (JMH goes on to the next cell after a failure without always tearing down the last).
     */
    public CellTrial beginCell(int seqLen, int batch) {
        if (trial != null && !trial.ended()) {
            trial.end(new IllegalStateException(trial.cell().id() + ": the benchmark stopped before the cell's end (see "
                    + "console.log for why)"));
        }
        ForkPlan.PlannedCell planned = plan.cells().stream().filter(c -> c.seqLen() == seqLen && c.batch() == batch)
                .findFirst().orElseThrow(() -> new IllegalArgumentException("seq " + seqLen + " x batch " + batch
                        + " is not in this fork's plan"));
        Cell cell = plan.cell(planned);
        if (!begun.add(cell)) {
            throw new IllegalStateException(cell.id() + " was begun twice in one fork");
        }
        events.accept(new ForkEvent.CellStarted(cell.id()));
        beginning = planned;
        watchdog.begin("the preparation or a timed unit of " + cell.id() + " (one of its " + plan.kind().units() + ")");
        int position = nextPosition++;
        // The cell's memory counts from here, before its inputs are prepared: its peak is reset to the current resident set.
        MemoryUse.Reader memory = MemoryUse.Reader.self();
        boolean peakReset = memory.resetPeak();
        double rssStartMb = memory.rssMb();
        try {
            PassRecorder recorder = new PassRecorder();
            KindSession.Unit unit = session.prepare(seqLen, batch, plan.session().seed(), recorder);
            recorder.declarePhases(unit.phases());
            unit.beforeTimed();
            long t0 = System.nanoTime();
            unit.forward();
            double firstPassMs = (System.nanoTime() - t0) / NS_PER_MS;
            unit.afterTimed();
            watchdog.progress();
            if (firstInferenceMs == null) {
                firstInferenceMs = firstPassMs;
            }
            trial = new CellTrial(this, cell, planned.outputDir(), position, firstPassMs, recorder, unit, memory, rssStartMb,
                    peakReset);
            beginning = null;
            return trial;
        } catch (RuntimeException | Error e) {
            beginning = null;
            trial = CellTrial.failedToBegin(this, cell, planned.outputDir(), position);
            trial.end(e);
            throw e;
        }
    }

    /**
     * Fails the work the watchdog found stuck ({@link CallWatchdog}), from the watchdog's thread: the cell being
     * prepared, or the trial being measured. The stuck thread is never touched; the JVM is halted next.
     */
    synchronized void failStuck(CellFault fault) {
        ForkPlan.PlannedCell preparing = beginning;
        if (preparing != null) {
            CellTrial.failedToBegin(this, plan.cell(preparing), preparing.outputDir(), nextPosition).end(fault);
        } else if (trial != null && !trial.ended()) {
            trial.end(fault);
        }
    }

    /** The cell begun last, or null before any. */
    public CellTrial currentTrial() {
        return trial;
    }

    /** Whether a cell of the plan has been begun in this fork. */
    public boolean begun(Cell cell) {
        return begun.contains(cell);
    }

    void report(ForkEvent event) {
        events.accept(event);
    }

    KindSession session() {
        return session;
    }

    CallWatchdog watchdog() {
        return watchdog;
    }

    InferenceEngine backend() {
        return backend;
    }

    /** What each measurement reads around its passes: the fork's probes, the GPU's sampler last on CUDA. */
    List<Probe<?>> probes() {
        if (gpu == null) {
            return probes;
        }
        List<Probe<?>> withGpu = new java.util.ArrayList<>(probes);
        withGpu.add(gpu);
        return withGpu;
    }

    /** The GPU's sampler on CUDA, or null. */
    GpuSampler gpu() {
        return gpu;
    }

    /** The JVM's cold start; its first inference is known once the first cell has begun. */
    ColdStart coldStart() {
        return new ColdStart(engineLoadMs, sessionCreateMs, firstInferenceMs == null ? Double.NaN : firstInferenceMs,
                rssBeforeSessionMb, rssAfterSessionMb);
    }

    /** Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (current == this) {
            current = null;
        }
        if (gpu != null) {
            gpu.close();
        }
        // The session's close is the engine's or the user's code: held to the call timeout as every other call is.
        watchdog.begin("closing the " + plan.backend() + " session (its close())");
        try {
            session.close();
        } finally {
            watchdog.end();
        }
    }
}
