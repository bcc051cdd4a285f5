package io.inferbench.results;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.cli.Settings;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.measure.WarmupPolicy;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Deterministic runs for the format, report and comparison tests. */
public final class SampleRuns {
    /** How ONNX Runtime's CPU session ran in these samples. */
    public static final CellResult.Session ORT_SESSION = new CellResult.Session("CPUExecutionProvider", 2, 1, "1.23.2",
            "cpu build (onnxruntime)", "cpu", "pinned");

    private SampleRuns() {
    }

    /** A fixed run with three measured cells, one failed cell and their analysis; everything deterministic. */
    public static RunResult sampleRun() {
        Map<String, String> libraries = new LinkedHashMap<>();
        libraries.put("jmh-core", "1.37");
        libraries.put("HdrHistogram", "2.2.2");
        EnvironmentInfo environment = new EnvironmentInfo(
                new EnvironmentInfo.Machine("Linux", "6.1", "amd64", "Test CPU @ 2.5GHz", 2, 25_000_000_000L),
                new EnvironmentInfo.Jvm("Debian", "17.0.15", "OpenJDK 64-Bit Server VM", "1.37"),
                Map.of("onnxruntime", "ONNX Runtime 1.23.2 (onnxruntime, CPU-only build; providers compiled in: [CPU])"),
                libraries, null, "no NVIDIA GPU detected: nvidia-smi is not on the PATH",
                new CpuIdentity("AuthenticAMD", 25, 17, 1, List.of("avx2", "fma", "f16c", "avx512f", "avx512_vnni"), null));
        RunConfig config = new RunConfig(
                new RunConfig.Plan(List.of("onnxruntime"), List.of("cpu"),
                        List.of(new RunConfig.ModelInfo("tiny", "ab".repeat(32), 16_952_962L, "built-in encoder tiny, seed 42")),
                        List.of(64), "/repo/buckets/default.buckets", List.of(1, 2, 3, 4), List.of(), null, null, null, null),
                new RunConfig.Rules(null, null, samplePolicy(), 1, 42L, 1.5),
                new RunConfig.ForkJvms("model", 8, "-Xmx4g", "foreground"),
                new RunConfig.Engines(2, 1, false, "reuse", Map.of("MALLOC_MMAP_THRESHOLD_", "2000000000"),
                        Map.of("ATEN_CPU_CAPABILITY", "avx2")),
                new RunConfig.Provenance("verify -Dbench.seq=64", "java -cp ... io.inferbench.cli.InferbenchMain sweep", "ci-runner"));
        Random random = new Random(12345);
        List<CellResult> cells = new java.util.ArrayList<>();
        for (int batch = 1; batch <= 3; batch++) {
            Histogram histogram = PassRecorder.newHistogram();
            int scale = batch;
            random.longs(200, 2_000_000L * scale, 3_000_000L * scale).forEach(histogram::recordValue);
            LatencySummary latency = LatencySummary.of(histogram);
            CellFork fork = new CellFork(1, 4242, batch - 1, 1.5 * batch,
                    new WarmupOutcome(30, 100.5, 2.0, WarmupEnd.STEADY),
                    new MeasureOutcome(200, 500.25, 498.75, 0.0, 1.75, 0.95, batch == 3 ? MeasureEnd.TIME_CAP : MeasureEnd.PRECISE,
                            new io.inferbench.probe.CpuUse(500.25, 990.0, 98.95, 10.0, 1.0, List.of(
                                    new io.inferbench.probe.CpuUse.ThreadCpu("java", 495.0),
                                    new io.inferbench.probe.CpuUse.ThreadCpu("onnxruntime", 490.0))),
                            new io.inferbench.probe.EnergyUse(io.inferbench.probe.EnergyUse.Figures.NONE, "RAPL package counters (/sys/class/powercap), "
                                    + "whole packages", "no RAPL package domain under /sys/class/powercap"),
                            null,
                            batch == 2 ? List.of(new io.inferbench.measure.SetAside(150, 500.5, 6.25, 48.5)) : null),
                    new io.inferbench.probe.MemoryUse(300.0 + batch, 301.5 + batch, 310.0 + 2.5 * batch,
                            io.inferbench.probe.MemoryUse.SINCE_CELL, 48.0, 256.0));
            cells.add(new CellResult(CellStatus.OK, null, new CellResult.Identity("onnxruntime", "cpu", "tiny", "ab".repeat(32), 64,
                    batch), new CellResult.Counts(1, 30, 200), new CellResult.Latency(latency, latency,
                    batch * 1000.0 / latency.meanMs()), null, ORT_SESSION, new CellResult.Histograms(HistogramCodec.encode(histogram),
                    null), CellResult.ForkRecords.of(List.of(fork))));
        }
        cells.add(CellResult.failed(new SeriesKey("onnxruntime", "cpu", "tiny", 64), "ab".repeat(32), 4, "simulated failure"));
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, "20261129-184949-b501", "2026-11-29T18:49:49Z",
                "2026-11-29T18:50:00Z", environment, config, List.copyOf(cells));
        RunResult analysed = run.withAnalysis(RunAnalysis.analyze(run, Settings.defaultRegime()));
        ForkJvm jvm = new ForkJvm(1, new io.inferbench.analysis.SeriesKey.EngineModel("onnxruntime", "cpu", "tiny"), 4242,
                cells.stream().map(CellResult::id).toList(), new ForkJvm.Start(120.0, 438.25, 207.5, 96.5, 1.5), 4.5, 0, null,
                "round");
        RunTiming timing = new RunTiming(12.5, 1.25, 8.0, new RunTiming.InSweep(1.5, 0.5, 0.25, 1, 0.125, 0.625, 5.0),
                new RunTiming.AfterSweep(1.0, 0, 0, 0, 1.5), 0.75, new RunTiming.Shares(0.1875, 0.12));
        analysed = analysed.withResources(io.inferbench.resources.Resources.of(analysed, 1024.0, "-Dbench.memoryBudgetMb"));
        List<StageResult> stages = List.of(new StageResult("preflight", StageResult.OK, 1.25, null),
                new StageResult("sweep", StageResult.OK, 8.0, null), new StageResult("analysis", StageResult.OK, 0.5, null),
                new StageResult("profile", StageResult.FAILED, 1.0, "io.inferbench.BenchmarkException: simulated"),
                new StageResult("comparison", StageResult.OK, 0.25, null), new StageResult("report", StageResult.OK, 0.75, null));
        ComparisonSummary comparison = new ComparisonSummary("/repo/results/baseline/run.json", "20261128-101010-a0a0", 5.0,
                0, 1, 2, 0, false, false, "no regression shown", 0);
        return analysed.withProfile(sampleProfile(analysed)).withAgreement(sampleAgreement()).withForkJvms(List.of(jvm))
                .withTiming(timing).withStages(stages).withComparison(comparison);
    }

    /** The default rules: until steady, until precise within 2%. */
    static MeasurePolicy samplePolicy() {
        return new MeasurePolicy(WarmupPolicy.untilSteady(0.05, 5000), new StopPolicy(null, 0.02, 0.95, 2, 750, 3000));
    }

    /** A fixed agreement section: tiny-int8 against tiny at seq 64, batch 1 and 2, the second shape differing. */
    static AgreementResult sampleAgreement() {
        var agrees = new AgreementResult.ShapeAgreement(64, 1, 16, 2, 0.00425, 0.0263, 0.999944, 0.999979, 1.0, 0.254, 0.238,
                0.254 / 0.238, 1.5, true);
        var differs = new AgreementResult.ShapeAgreement(64, 2, 32, 2, 0.3, 1.25, 0.26, 0.71, 0.5, 0.5, 0.4, 1.25, 1.125, false);
        return new AgreementResult("tiny", 16, 0.99, 0.99, "sample method",
                List.of(new AgreementResult.Pair("onnxruntime", "cpu", "tiny-int8", "logits float [batch, 2]", true,
                        List.of(agrees, differs), null),
                        new AgreementResult.Pair("onnxruntime", "cpu", "other.onnx", "logits float [batch, 2]", true, List.of(),
                                "the outputs differ in name: [scores] against the reference's [logits]")));
    }

    /**
     * A fixed profile for the sample cells: made-up peaks (400 GFLOP/s float32, 1,200 GOP/s int8, 40 GB/s, a 0.003 ms call floor), a 0.03 ms fixed
     * cost per call, tiny's work at seq 64 by hand (the products, plus 2% element-wise), 3.9 MB per sample, and the
     * roofline rule and cross-check applied to them as the profile step would.
     */
    static ProfileResult sampleProfile(RunResult run) {
        var th = ProfileResult.RooflineThresholds.DEFAULTS;
        var peaks = new ProfileResult.Calibration("onnxruntime", "cpu", 2,
                new ProfileResult.Calibration.Peaks(400e9, 40e9, 0.003, 10, 1200e9, null), "sample peaks",
                "measured now, cached as /cache/calibration.json", null).withMachineRoof(new ProfileResult.MachineRoof(50e9,
                "measured", "sample in-place add over two arrays of 256 MiB", "measured now, cached as /cache/memory-roof.json",
                null, null));
        var floor = new ProfileResult.ModelFloor("onnxruntime", "cpu", "tiny", 0.032, 0.002, 0.030, "sample floor");
        List<CellProfile> cells = new java.util.ArrayList<>();
        for (CellResult c : run.cells()) {
            if (!c.measured()) {
                continue;
            }
            double flops = c.batch() * 55.67e6;
            double bytes = c.batch() * 3.9e6;
            var placed = io.inferbench.roofline.Roofline.place(flops, bytes, c.latencyMs().p50Ms(), floor.overheadMs(), peaks, th);
            cells.add(new CellProfile(new CellProfile.Shape(c.backend(), c.device(),
                    c.model(), c.seqLen(), c.batch()),
                new CellProfile.Work(flops, java.util.Map.of("fp32", flops), bytes,
                        "counted from the profiled kernels' shapes"),
                new CellProfile.Achieved(c.latencyMs().p50Ms(), placed.flopsPerSecond(),
                        placed.bytesPerSecond(), placed.flopsPercent(), placed.bytesPercent(), placed.intensity()),
                new CellProfile.Roof(placed.roofFlopsPerSecond(), null, peaks.ridgeFlopsPerByte()),
                new CellProfile.Floor(floor.overheadMs(), placed.floorShare()),
                new CellProfile.Verdict(placed.rooflineClass(), placed.reason()),
                new CellProfile.Ops(List.of(new ProfileResult.OpShare("MatMul", 59.5, 14, 41.25, false,
                        false), new ProfileResult.OpShare("BiasGelu", 12.25, 2, 3.5, false, false),
                        new ProfileResult.OpShare("Transpose", 6.0, 6, null, false, false)), List.of(), null, "sample"),
                placed.bytesPercentOfEngine()));
        }
        List<ProfileResult.CrossCheck> checks = run.fits().stream().map(fit -> io.inferbench.roofline.CrossCheck.of(fit,
                cells.stream().filter(c -> c.seqLen() == fit.seqLen()).toList())).toList();
        return new ProfileResult(List.of(peaks), List.of(floor), th, List.copyOf(cells), checks);
    }
}
