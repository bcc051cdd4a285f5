package io.inferbench.results;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.cli.Settings;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Deterministic runs for the format, report and comparison tests. */
public final class SampleRuns {
    private SampleRuns() {
    }

    /** A fixed run with three measured cells, one failed cell and their analysis; everything deterministic. */
    public static RunResult sampleRun() {
        Map<String, String> libraries = new LinkedHashMap<>();
        libraries.put("jmh-core", "1.37");
        libraries.put("HdrHistogram", "2.2.2");
        EnvironmentInfo environment = new EnvironmentInfo("Linux", "6.1", "amd64", "Test CPU @ 2.5GHz", 2, 25_000_000_000L,
                "Debian", "17.0.15", "OpenJDK 64-Bit Server VM", "1.37",
                Map.of("onnxruntime", "ONNX Runtime 1.23.2 (onnxruntime, CPU-only build; providers compiled in: [CPU])"),
                libraries, null, "no NVIDIA GPU detected: nvidia-smi is not on the PATH");
        RunConfig config = new RunConfig(List.of("onnxruntime"), List.of("cpu"),
                List.of(new RunConfig.ModelInfo("tiny", "ab".repeat(32), 16_952_962L, "built-in encoder tiny, seed 42")),
                List.of(64), "/repo/buckets/default.buckets", List.of(1, 2, 3, 4), 30, 200, 1, 2, 1, 42L, false, "-Xmx4g", List.of(),
                "verify -Dbench.seq=64", "java -cp ... io.inferbench.cli.InferbenchMain sweep");
        Random random = new Random(12345);
        List<CellResult> cells = new java.util.ArrayList<>();
        for (int batch = 1; batch <= 3; batch++) {
            Histogram histogram = PassRecorder.newHistogram();
            int scale = batch;
            random.longs(200, 2_000_000L * scale, 3_000_000L * scale).forEach(histogram::recordValue);
            LatencySummary latency = LatencySummary.of(histogram);
            cells.add(new CellResult(CellStatus.OK, null, "onnxruntime", "cpu", "tiny", "ab".repeat(32), 64, batch, 1, 30, 200,
                    latency, latency, batch * 1000.0 / latency.meanMs(), List.of(new ColdStart(438.25, 207.5, 6.125)),
                    "CPUExecutionProvider", 2, 1, "1.23.2", "cpu build (onnxruntime)", "cpu", "pinned",
                    HistogramCodec.encode(histogram), null));
        }
        cells.add(CellResult.failed(new SeriesKey("onnxruntime", "cpu", "tiny", 64), "ab".repeat(32), 4, "simulated failure"));
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, "20261129-184949-b501", "2026-11-29T18:49:49Z",
                "2026-11-29T18:50:00Z", environment, config, List.copyOf(cells));
        return run.withAnalysis(RunAnalysis.analyze(run, Settings.defaultRegime()));
    }
}
