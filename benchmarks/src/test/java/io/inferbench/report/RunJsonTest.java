package io.inferbench.report;

import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The run.json format: sealed by a golden file, and independent of the default locale. */
class RunJsonTest {
    private static final Locale ORIGINAL = Locale.getDefault();

    @TempDir
    Path dir;

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(ORIGINAL);
    }

    /** A fixed run with three measured cells, one failed cell and their analysis; everything deterministic. */
    static RunResult sampleRun() {
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
                "verify -Dbench.seq=64", "java -cp ... io.inferbench.jmh.InferbenchMain sweep");
        Random random = new Random(12345);
        List<CellResult> cells = new java.util.ArrayList<>();
        for (int batch = 1; batch <= 3; batch++) {
            Histogram histogram = PassRecorder.newHistogram();
            int scale = batch;
            random.longs(200, 2_000_000L * scale, 3_000_000L * scale).forEach(histogram::recordValue);
            LatencySummary latency = LatencySummary.of(histogram);
            cells.add(new CellResult(CellResult.OK, null, "onnxruntime", "cpu", "tiny", "ab".repeat(32), 64, batch, 1, 30, 200,
                    latency, latency, batch * 1000.0 / latency.meanMs(), List.of(new ColdStart(438.25, 207.5, 6.125)),
                    "CPUExecutionProvider", 2, 1, "1.23.2", "cpu build (onnxruntime)", "cpu", "pinned",
                    HistogramCodec.encode(histogram), null));
        }
        cells.add(new CellResult(CellResult.FAILED, "simulated failure", "onnxruntime", "cpu", "tiny", "ab".repeat(32),
                64, 4, 0, 0, 0, null, null, null, null, null, null, null, null, null, null, null, null, null));
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, "20261129-184949-b501", "2026-11-29T18:49:49Z",
                "2026-11-29T18:50:00Z", environment, config, List.copyOf(cells));
        return run.withAnalysis(RunAnalysis.analyze(run, RegimeThresholds.DEFAULTS));
    }

    /** After a deliberate format change, run once with -Dgolden.update=true, then review the diff of the golden file. */
    @Test
    void runJsonMatchesTheGoldenFile() throws IOException {
        String written = Json.mapper().writeValueAsString(sampleRun());
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(Path.of("src/test/resources/golden/run-v2.json"), written + "\n");
            return;
        }
        try (InputStream golden = getClass().getResourceAsStream("/golden/run-v2.json")) {
            assertNotNull(golden, "golden file missing; regenerate with -Dgolden.update=true and review it");
            assertEquals(new String(golden.readAllBytes(), StandardCharsets.UTF_8).strip(), written.strip());
        }
    }

    @Test
    void roundTripsUnchangedUnderACommaDecimalLocale() throws IOException {
        Locale.setDefault(Locale.GERMANY);
        assertEquals("1,5", String.format("%.1f", 1.5), "the test must really run under a comma-decimal locale");
        RunResult run = sampleRun();
        Path file = dir.resolve("run.json");
        RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, run));
        String text = Files.readString(file);
        assertFalse(text.matches("(?s).*\"p50Ms\" : \\d+,\\d.*"), "a decimal comma reached the JSON");
        assertEquals(run, RunStore.readRun(file));
        Locale.setDefault(Locale.ROOT);
        assertEquals(text, Json.mapper().writeValueAsString(RunStore.readRun(file)));
    }
}
