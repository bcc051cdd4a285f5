package io.inferbench.roofline;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.OpTrace;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.measure.CellLoop;
import io.inferbench.measure.JitClock;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.model.ModelSource;
import io.inferbench.model.TokenInputs;
import io.inferbench.results.CellProfile;
import io.inferbench.results.CellResult;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After the sweep, in its JVM: this machine's peaks per engine and device ({@link Calibrations}), a profile per
 * cell where the engine has a profiler (op types, where each ran, shapes: {@link io.inferbench.engine.OpTrace}), the work of each pass from those
 * shapes ({@link WorkCount}), each cell against the roofs ({@link Roofline}), and every series' slope verdict checked
 * against them ({@link CrossCheck}).
 *
 * <p>A built-in model is the same graph on every engine, so a cell of {@code tiny} or {@code base} on an engine without a
 * profiler gets the work its ONNX graph does (counted from another engine's profile on the CPU at the same shape); its
 * op profile stays unknown. A TorchScript file's work is unknown.
 */
public final class ProfileRunner {
    /** Warm-up passes of the profiling session, then the profiled passes whose per-kernel medians make a cell's op profile. */
    static final int PROFILE_WARMUP = 2;
    static final int PROFILED_PASSES = 5;

    private final SessionDefaults sessions;
    private final PrintStream console;
    private final ProfileResult.RooflineThresholds thresholds = ProfileResult.RooflineThresholds.DEFAULTS;

    public ProfileRunner(SessionDefaults sessions, PrintStream console) {
        this.sessions = sessions;
        this.console = console;
    }

    public ProfileResult run(RunResult run, Path runDir) {
        MeasurePolicy policy = run.config().rules().measurePolicy();
        if (policy == null) {
            throw new IllegalArgumentException("run " + run.runId() + " records no warm-up and stop rules (schema "
                    + run.schemaVersion() + "): the profile measures the model's floor by the run's own rules, so it "
                    + "profiles only a run measured by this inferbench; run the sweep again");
        }
        Path traces = runDir.resolve("profiles");
        Map<String, ProfileResult.Calibration> peaks = new LinkedHashMap<>();
        for (String backend : run.config().plan().backends()) {
            if (!Engines.capabilities(backend).calibration()) {
                console.println("[inferbench] profile: " + backend + " is not profiled: a target's own code has no FLOP peak, "
                        + "bandwidth or op profile the harness can measure, so its cells are not placed on the roofline; "
                        + "its stages show where its time goes");
                continue;
            }
            for (String device : run.config().plan().devices()) {
                ProfileResult.Calibration c = roofs(backend, device, run, sessions);
                peaks.put(backend + "/" + device, c);
                ProfileResult.MachineRoof machine = c.machineRoof();
                console.println(Text.f("[inferbench] peaks of %s on %s, %d thread(s): %.1f GFLOP/s float32%s%s, %.1f GB/s (%s the "
                                + "machine's memory roof, %.1f GB/s %s), %.3f ms per call (%s)", backend, device,
                        sessions.intraOpThreads(), c.peakFlopsPerSecond() / 1e9,
                        c.peakIntegerOpsPerSecond() == null ? "" : Text.f(", %.1f GOP/s int8", c.peakIntegerOpsPerSecond() / 1e9),
                        c.peakHalfFlopsPerSecond() == null ? "" : Text.f(", %.1f GFLOP/s float16", c.peakHalfFlopsPerSecond() / 1e9),
                        c.peakBytesPerSecond() / 1e9, Text.f("%.0f%% of", machine.engineShareOfRoofPercent()),
                        machine.bytesPerSecond() / 1e9, machine.source(), c.callFloorMs(), c.cacheNote()));
                if (machine.disagreement() != null) {
                    console.println("[inferbench] " + backend + " on " + device + ": " + machine.disagreement());
                }
            }
        }
        Map<String, OpTrace> graphTraces = new HashMap<>();
        Map<String, ProfileResult.ModelFloor> floors = new LinkedHashMap<>();
        List<CellProfile> cells = new ArrayList<>();
        for (CellResult cell : run.cells()) {
            ProfileResult.Calibration calibration = peaks.get(cell.backend() + "/" + cell.device());
            if (!cell.measured() || calibration == null) {
                continue;
            }
            ProfileResult.ModelFloor floor = floors.computeIfAbsent(cell.backend() + "/" + cell.device() + "/" + cell.model(),
                    k -> floor(cell, calibration, policy, traces, graphTraces));
            cells.add(profile(cell, calibration, floor, traces, graphTraces));
        }
        floors.values().forEach(f -> console.println(Text.f("[inferbench] fixed cost per call of %s on %s/%s: %.3f ms (%s)",
                Text.shortModelName(f.model()), f.backend(), f.device(), f.overheadMs(), f.passMs() == null ? f.method()
                        : Text.f("batch 1, %s pass %.3f ms less %s of work at the roofs", cells.stream().anyMatch(c ->
                        c.model().equals(f.model()) && c.seqLen() == 0) ? "batch-only" : "seq 1", f.passMs(),
                        f.workMs() == null ? "unknown" : Text.f("%.3f ms", f.workMs())))));
        return new ProfileResult(List.copyOf(peaks.values()), List.copyOf(floors.values()), thresholds, cells,
                crossChecks(run.fits(), cells));
    }

    /** Each series' verdict checked against its cells on the roofline; a merge of shards recomputes them this way. */
    public static List<ProfileResult.CrossCheck> crossChecks(List<SeriesFit> fits, List<CellProfile> cells) {
        List<ProfileResult.CrossCheck> checks = new ArrayList<>();
        if (fits != null) {
            for (SeriesFit fit : fits) {
                List<CellProfile> series = cells.stream().filter(c -> c.backend().equals(fit.backend())
                        && c.device().equals(fit.device()) && c.model().equals(fit.model()) && c.seqLen() == fit.seqLen())
                        .sorted(Comparator.comparingInt(CellProfile::batch)).toList();
                if (!series.isEmpty()) {
                    checks.add(CrossCheck.of(fit, series));
                }
            }
        }
        return checks;
    }

    /**
     * The model's fixed cost per call ({@link ProfileResult.ModelFloor}): passes at batch 1, seq 1 on a session of its own,
     * warmed up until steady and measured until precise by the run's own rules ({@code policy}, as every cell was), their
     * median, less what that pass's work needs at the roofs. A model that runs batch only takes batch 1 (its seqLen is
     * 0); a model that cannot take seq 1 keeps the engine's floor.
     *
     * <p>Why the cells' rules: the session is new in this JVM, whose JIT has not run the engine's pass path since the
     * preflight, so the first hundreds of passes run partly interpreted while a compiler thread works beside them, and a
     * fixed short warm-up reads the floor far more spread than the cells' rules do (docs/findings.md, "The fixed cost
     * per pass"). The floor is in the roofline's verdicts and the serving forecast's batch costs, so it must be the steady state
     * too.
     */
    private ProfileResult.ModelFloor floor(CellResult cell, ProfileResult.Calibration peaks, MeasurePolicy policy, Path traces,
                                           Map<String, OpTrace> graphTraces) {
        ModelSource source = ModelSource.parse(cell.model());
        int seq = cell.seqLen() == 0 ? 0 : 1;
        TokenBatch one = TokenBatch.full(1, seq, TokenInputs.tokenIds(1, seq, sessions.seed()));
        double passMs;
        String passes;
        try (InferenceSession session = Engines.create(cell.backend(), sessions.nativeCacheDir()).open(spec(source, cell.device()))) {
            session.prepare(one);
            PassRecorder recorder = new PassRecorder();
            CellLoop loop = new CellLoop(recorder, policy, NanoClock.SYSTEM, JitClock.jvm());
            WarmupOutcome warmup = loop.warmUp(session::forward);
            MeasureOutcome measured = loop.measure(session::forward);
            passMs = recorder.measuredNs().getValueAtPercentile(50) / 1e6;
            passes = Text.f("median of batch-1, " + (seq == 0 ? "batch-only" : "seq-1") + " passes: warm-up %d passes in %.0f ms (%s), then %d passes (%s%s)",
                    warmup.passes(), warmup.wallMs(), warmup.end().label(), measured.passes(), measured.end().label(),
                    measured.p50HalfWidthPercent() == null ? "" : Text.f(", p50 within ±%.1f%%",
                            measured.p50HalfWidthPercent()));
        } catch (BenchmarkException e) {
            return new ProfileResult.ModelFloor(cell.backend(), cell.device(), cell.model(), null, null, peaks.callFloorMs(),
                    "the model would not run at batch 1, seq 1 (" + e.getMessage() + "); the engine's near-empty-call floor "
                            + "is used instead");
        }
        OpTrace work = workTrace(cell.backend(), cell.device(), source, one, traces, graphTraces, graphKey(cell.model(), 1, 1));
        Double workMs = null;
        if (work != null) {
            WorkCount count = WorkCount.of(work);
            workMs = 1e3 * Math.max(count.flops() / Roofline.Roof.of(count.flopsByPrecision(), peaks).flopsPerSecond(),
                    count.bytes() / peaks.memoryRoofBytesPerSecond());
        }
        double overhead = Math.max(peaks.callFloorMs(), passMs - (workMs == null ? 0 : workMs));
        return new ProfileResult.ModelFloor(cell.backend(), cell.device(), cell.model(), passMs, workMs, overhead,
                Text.f("%s, less %s; at least the engine's near-empty-call floor (%.4f ms)", passes,
                        workMs == null ? "nothing (the work is unknown, so all of it counts as overhead: an upper bound)"
                                : "the larger of its FLOPs over the FLOP peak and its bytes over the bandwidth",
                        peaks.callFloorMs()));
    }

    /** The trace that gives a pass's work: the engine's own profile, or for a built-in the ONNX graph's on the CPU. */
    private OpTrace workTrace(String backend, String device, ModelSource source, TokenBatch batch, Path traces,
                              Map<String, OpTrace> graphTraces, String key) {
        OpTrace own = ownTrace(backend, device, source, batch, 1, traces).map(t -> t.trace()).orElse(null);
        return own != null ? own : graphTrace(source, batch, traces, graphTraces, key);
    }

    /** A profile's file, and its passes after the warm-up as the engine read them. */
    private record Profiled(Path file, OpTrace trace) {
    }

    /** The engine's own trace of {@code passes} passes after {@link #PROFILE_WARMUP}, when it has a profiler. */
    private Optional<Profiled> ownTrace(String backend, String device, ModelSource source, TokenBatch batch, int passes,
                                        Path traces) {
        InferenceEngine engine = sessions.backend(backend);
        return engine.profilePass(spec(source, device), batch, PROFILE_WARMUP, passes,
                traces.resolve(backend + "-" + device.replace(':', '_')))
                .map(file -> new Profiled(file, OpTrace.afterWarmup(engine.readProfile(file), PROFILE_WARMUP)));
    }

    /**
     * A built-in's work as its ONNX graph does it, from one profiled pass on the CPU at the shape by the first engine that
     * profiles ops and loads it (the same computation as every engine's), profiled once per shape; null for a model that
     * is not a built-in, or where no engine of this build profiles it.
     */
    private OpTrace graphTrace(ModelSource source, TokenBatch batch, Path traces, Map<String, OpTrace> graphTraces, String key) {
        if (!(source instanceof ModelSource.Builtin)) {
            return null;
        }
        return graphTraces.computeIfAbsent(key, k -> Engines.opProfiler(source).map(sessions::backend).flatMap(engine -> engine
                .profilePass(spec(source, "cpu"), batch, 0, 1, traces.resolve("graph-counts"))
                .map(file -> OpTrace.afterWarmup(engine.readProfile(file), 0))).orElse(null));
    }

    private CellProfile profile(CellResult cell, ProfileResult.Calibration peaks, ProfileResult.ModelFloor floor,
                                              Path traces, Map<String, OpTrace> graphTraces) {
        ModelSource source = ModelSource.parse(cell.model());
        TokenBatch batch = TokenBatch.full(cell.batch(), cell.seqLen(), TokenInputs.tokenIds(cell.batch(), cell.seqLen(), sessions.seed()));
        String key = graphKey(cell.model(), cell.seqLen(), cell.batch());
        Optional<Profiled> trace = ownTrace(cell.backend(), cell.device(), source, batch, PROFILED_PASSES, traces);
        OpTrace own = trace.map(Profiled::trace).orElse(null);
        String profileNote;
        String workNote;
        OpTrace work = own;
        if (own != null) {
            profileNote = "each kernel's median over " + PROFILED_PASSES + " profiled passes after " + PROFILE_WARMUP
                    + " warm-up passes, on a separate session; trace " + trace.get().file().getFileName();
            workNote = "counted from the profiled kernels' shapes";
            if ("cpu".equals(cell.device())) {
                graphTraces.put(key, own);
            }
        } else {
            profileNote = cell.backend() + " has no profiler this harness reads: no op profile";
            work = graphTrace(source, batch, traces, graphTraces, key);
            workNote = work != null ? "the built-in's ONNX graph, counted from " + Engines.opProfiler(source).orElseThrow()
                    + "'s profile on the CPU at the same shape (the same computation as " + cell.backend() + "'s)"
                    : "unknown: a TorchScript module's work is not counted (no shapes per op are available)";
        }
        WorkCount count = work == null ? null : WorkCount.of(work);
        if (count != null && !count.uncounted().isEmpty()) {
            workNote += "; ops without a FLOP rule (counted as 0): " + count.uncounted();
        }
        Roofline.Placed placed = Roofline.place(count == null ? null : count.flopsByPrecision(), count == null ? null : count.bytes(),
                cell.latencyMs().p50Ms(), floor.overheadMs(), peaks, thresholds);
        Placement.CpuPlacement placement = own != null && !"cpu".equals(cell.device()) ? Placement.of(own) : null;
        return new CellProfile(new CellProfile.Shape(cell.backend(), cell.device(),
                cell.model(), cell.seqLen(), cell.batch()),
                new CellProfile.Work(count == null ? null : count.flops(),
                        count == null ? null : count.flopsByPrecision(), count == null ? null : count.bytes(),
                        workNote),
                new CellProfile.Achieved(cell.latencyMs().p50Ms(), placed.flopsPerSecond(),
                        placed.bytesPerSecond(), placed.flopsPercent(), placed.bytesPercent(), placed.intensity()),
                new CellProfile.Roof(placed.roofFlopsPerSecond(),
                        Roofline.FLOAT32_ONLY.equals(placed.roofNote()) ? null : placed.roofNote(),
                        placed.roofFlopsPerSecond() == null ? peaks.ridgeFlopsPerByte()
                                : placed.roofFlopsPerSecond() / peaks.memoryRoofBytesPerSecond()),
                new CellProfile.Floor(floor.overheadMs(), placed.floorShare()),
                new CellProfile.Verdict(placed.rooflineClass(), placed.reason()),
                new CellProfile.Ops(own == null ? List.of() : opShares(own, peaks, thresholds),
                        placement == null ? List.of() : placement.cpuNodes(),
                        placement == null ? null : placement.cpuSharePercent(), profileNote),
                placed.bytesPercentOfEngine());
    }

    /** Op types by their share of the profiled pass's kernel time, with each one's own FLOP rate where it computes. */
    static List<ProfileResult.OpShare> opShares(OpTrace trace, ProfileResult.Calibration peaks,
                                                ProfileResult.RooflineThresholds thresholds) {
        double total = trace.kernelUs();
        boolean launches = trace.kernelTimesAreLaunches();
        // Per op type: kernel microseconds, kernels, and the seconds its FLOPs need at their own precision's roof.
        Map<String, double[]> byOp = new LinkedHashMap<>();
        for (OpTrace.NodeRun node : trace.nodes()) {
            double[] acc = byOp.computeIfAbsent(node.opType(), k -> new double[3]);
            acc[0] += node.durationUs();
            acc[1] += 1;
            double flops = WorkCount.flops(node, new ArrayList<>());
            if (flops > 0) {
                acc[2] += flops / Roofline.roofOf(peaks, WorkCount.precision(node));
            }
        }
        List<ProfileResult.OpShare> shares = new ArrayList<>();
        byOp.forEach((op, acc) -> {
            Double pct = !launches && acc[2] > 0 && acc[0] > 0 ? 100 * acc[2] / (acc[0] / 1e6) : null;
            boolean withheld = pct != null && pct > thresholds.maxOverPeakPercent();
            shares.add(new ProfileResult.OpShare(op, total > 0 ? 100 * acc[0] / total : 0, (int) acc[1], withheld ? null : pct,
                    withheld, launches));
        });
        shares.sort(Comparator.comparingDouble(ProfileResult.OpShare::sharePercent).reversed());
        return shares;
    }

    private SessionSpec spec(ModelSource source, String device) {
        return sessions.spec(source, device);
    }

    private static String graphKey(String model, int seqLen, int batch) {
        return model + "/" + seqLen + "/" + batch;
    }

    /**
     * What the peaks belong to, the calibration cache's key: for CUDA devices the GPUs; for the CPU what makes two machines
     * differ, not their name ("AMD EPYC" is a Zen 4 part on one machine and a faster one on another): the part (vendor,
     * family, model, stepping) and its flags where the kernel says them, the core count, and the memory's size.
     */
    public static String hardware(RunResult run, String device) {
        if (device.startsWith("cuda") && run.environment().gpus() != null) {
            return String.join(";", run.environment().gpus());
        }
        io.inferbench.results.CpuIdentity cpu = run.environment().cpu();
        return (cpu == null || cpu.family() == null ? run.environment().cpuModel()
                : cpu.part() + " " + String.join(",", cpu.isaFlags() == null ? java.util.List.of() : cpu.isaFlags()))
                + " x" + run.environment().logicalCores() + ", " + run.environment().memoryBytes() / (1L << 30) + " GiB";
    }

    /**
     * An engine's peaks on a device (measured, or read from the cache and re-checked), with the GPU's datasheet where it is
     * one this harness knows, placed against the device's memory roof: on the CPU the machine's own
     * ({@link Calibrations#machineRoof}), on a GPU the datasheet's memory bandwidth, or the engine's own figure where the
     * GPU is not in the datasheets (said in the roof's method).
     */
    public static ProfileResult.Calibration roofs(String backend, String device, RunResult run, SessionDefaults sessions) {
        ProfileResult.Calibration c = Calibrations.measureOrRead(backend, device, sessions.intraOpThreads(),
                sessions.interOpThreads(), hardware(run, device), sessions.cacheDir(), sessions.nativeCacheDir());
        if (!device.startsWith("cuda")) {
            return c.withMachineRoof(Calibrations.machineRoof(sessions.intraOpThreads(), hardware(run, device), sessions.cacheDir(),
                    c.peakBytesPerSecond()));
        }
        int index = device.contains(":") ? Integer.parseInt(device.substring(device.indexOf(':') + 1)) : 0;
        String gpu = run.environment().gpus() == null ? null
                : run.environment().gpus().stream().filter(g -> g.startsWith(index + ",")).findFirst().orElse(null);
        java.util.Optional<ProfileResult.Datasheet> sheet = GpuDatasheets.match(gpu);
        ProfileResult.Calibration withSheet = sheet.map(c::withDatasheet).orElse(c);
        return withSheet.withMachineRoof(sheet.map(s -> new ProfileResult.MachineRoof(s.memoryTbPerSecond() * 1e12, "datasheet",
                s.gpu() + ": " + Text.f("%.2f", s.memoryTbPerSecond()) + " TB/s of device memory, " + s.source()
                        + " (not measured here: a GPU's own roof is its datasheet's)", "gpu-datasheets.csv", null, null))
                .orElse(new ProfileResult.MachineRoof(c.peakBytesPerSecond(), "engine", "no datasheet row for " + gpu
                        + ": the engine's own figure stands for the device's memory roof", c.cacheNote(), null, null)));
    }
}
