package io.inferbench.report;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.ChangeVerdict;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Comparisons of synthetic runs whose truth is known: same distribution, 20% slower, noisier, incomparable. */
class CompareCommandTest {
    private static final int FORKS = 3;
    private static final int PASSES_PER_FORK = 150;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(console, true, StandardCharsets.UTF_8);

    /**
     * A run over seq 64 x batch 1..4 whose pass latencies are log-normal around {@code scale * base(batch)}, with
     * each fork shifted by a random factor (JVM-to-JVM noise of {@code forkNoise}, relative).
     */
    static RunResult run(String runId, double scale, double forkNoise, long seed, List<Integer> batches) {
        RunResult template = RunJsonTest.sampleRun();
        Random random = new Random(seed);
        List<CellResult> cells = new ArrayList<>();
        for (int batch : batches) {
            Histogram merged = PassRecorder.newHistogram();
            List<String> forks = new ArrayList<>();
            for (int f = 0; f < FORKS; f++) {
                Histogram fork = PassRecorder.newHistogram();
                double centreNs = scale * 2_000_000.0 * batch * (1 + forkNoise * random.nextGaussian());
                for (int i = 0; i < PASSES_PER_FORK; i++) {
                    fork.recordValue(Math.round(centreNs * Math.exp(0.08 * random.nextGaussian())));
                }
                merged.add(fork);
                forks.add(HistogramCodec.encode(fork));
            }
            LatencySummary l = LatencySummary.of(merged);
            cells.add(new CellResult(CellResult.OK, null, "onnxruntime", "cpu", "tiny", "ab".repeat(32), 64, batch, FORKS,
                    20L * FORKS, (long) PASSES_PER_FORK * FORKS, l, l, batch * 1000 / l.meanMs(),
                    List.of(new ColdStart(400, 200, 5)), "CPUExecutionProvider", 2, 1, "1.23.2", "cpu build (onnxruntime)", "cpu", "pinned",
                    HistogramCodec.encode(merged), forks));
        }
        RunConfig t = template.config();
        RunConfig config = new RunConfig(t.backends(), t.devices(), t.models(), t.seqLens(), t.bucketsFile(), batches, 20,
                PASSES_PER_FORK, FORKS, t.intraOpThreads(), t.interOpThreads(), t.seed(), t.allowCpuFallback(), t.forkJvmArgs(),
                t.skippedPairs(), t.mavenCommand(), t.jvmCommand());
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, runId, "2026-11-29T10:00:00Z", "2026-11-29T10:05:00Z",
                template.environment(), config, cells);
        return run.withAnalysis(RunAnalysis.analyze(run, io.inferbench.analysis.RegimeThresholds.DEFAULTS));
    }

    private Path write(RunResult run, String name) {
        Path file = dir.resolve(name + ".json");
        RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, run));
        return file;
    }

    private CompareResult compare(RunResult baseline, RunResult candidate, CompareCommand.Options options) {
        return CompareCommand.run(write(baseline, "baseline"), write(candidate, "candidate"), dir.resolve("out"), options, log);
    }

    private static final List<Integer> BATCHES = List.of(1, 2, 3, 4);

    @Test
    void aRunComparedWithItselfShowsNoChange() {
        RunResult run = run("a", 1.0, 0.03, 12345, BATCHES);
        CompareResult r = compare(run, run, CompareCommand.Options.DEFAULTS);
        assertFalse(r.regressed());
        assertEquals(BATCHES.size(), r.unchanged());
        for (CompareResult.Row row : r.rows()) {
            assertEquals(0.0, row.p50().changePercent(), 1e-9);
            assertTrue(row.p50().ciLowPercent() <= 0 && row.p50().ciHighPercent() >= 0, "CI contains 0");
            assertTrue(row.p50().betweenRunNoiseSampled());
        }
    }

    @Test
    void anotherRunOfTheSameDistributionShowsNoChange() {
        for (long seed = 1; seed <= 5; seed++) {
            CompareResult r = compare(run("a", 1.0, 0.03, 12345 + seed, BATCHES), run("b", 1.0, 0.03, 54321 + seed, BATCHES),
                    CompareCommand.Options.DEFAULTS);
            assertEquals(BATCHES.size(), r.unchanged(), "seed " + seed + ": " + console);
        }
    }

    @Test
    void twentyPercentSlowerIsASignificantRegressionAndFailsTheGate() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult candidate = run("b", 1.2, 0.03, 12345, BATCHES); // the baseline's samples, each 20% slower
        CompareResult r = compare(baseline, candidate, CompareCommand.Options.DEFAULTS);
        assertTrue(r.regressed());
        for (CompareResult.Row row : r.rows()) {
            assertEquals(ChangeVerdict.REGRESSED, row.p50Verdict(), "batch " + row.batch());
            assertTrue(row.p50().ciLowPercent() > 0 && row.p50().changePercent() > 5, "batch " + row.batch() + ": " + row.p50());
        }
        int exit = io.inferbench.jmh.InferbenchMainAccess.run("compare", dir.resolve("baseline.json").toString(),
                dir.resolve("candidate.json").toString(), dir.resolve("gate").toString());
        assertEquals(1, exit, "a regression must give a non-zero exit code");
        assertTrue(Files.readString(dir.resolve("gate").resolve(CompareCommand.MARKDOWN_FILE)).contains("**REGRESSED**"));
    }

    @Test
    void aNoisyCandidateWithTheSameMedianIsNotFlagged() {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult noisy = run("b", 1.0, 0.15, 777, BATCHES);
        CompareResult r = compare(baseline, noisy, CompareCommand.Options.DEFAULTS);
        assertFalse(r.regressed(), console.toString(StandardCharsets.UTF_8));
        r.rows().forEach(row -> assertTrue(row.p50().ciHighPercent() - row.p50().ciLowPercent() > 10,
                "fork-to-fork noise must widen the interval: " + row.p50()));
    }

    @Test
    void differentModelHashesAreRefusedUnlessForced() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult other = withModelSha(run("b", 1.0, 0.03, 54321, BATCHES), "cd".repeat(32));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> compare(baseline, other, CompareCommand.Options.DEFAULTS));
        assertTrue(e.getMessage().contains("model tiny differs: SHA-256 " + "ab".repeat(32)), e.getMessage());
        assertTrue(e.getMessage().contains("-Dcompare.force=true"), e.getMessage());

        CompareResult forced = compare(baseline, other, new CompareCommand.Options(5, 0.95, 2000, true));
        assertTrue(forced.overridden());
        String md = Files.readString(dir.resolve("out").resolve(CompareCommand.MARKDOWN_FILE));
        assertTrue(md.lines().skip(2).findFirst().orElseThrow().startsWith("> **WARNING: these runs are not comparable**"), md);
    }

    @Test
    void singleForkRunsAreRefusedUnlessForced() {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunConfig c = baseline.config();
        RunConfig oneFork = new RunConfig(c.backends(), c.devices(), c.models(), c.seqLens(), c.bucketsFile(), c.batches(),
                c.warmupPasses(), c.measuredPasses(), 1, c.intraOpThreads(), c.interOpThreads(), c.seed(), c.allowCpuFallback(),
                c.forkJvmArgs(), c.skippedPairs(), c.mavenCommand(), c.jvmCommand());
        RunResult single = new RunResult(baseline.schemaVersion(), "b", baseline.startedAt(), baseline.finishedAt(),
                baseline.environment(), oneFork, baseline.cells(), baseline.regimeThresholds(), baseline.fits(), baseline.seqScaling());
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> compare(baseline, single, CompareCommand.Options.DEFAULTS));
        assertTrue(e.getMessage().contains("with one fork the interval cannot include run-to-run noise"), e.getMessage());
    }

    @Test
    void differentGpuModelsAreRefused() {
        RunResult baseline = withGpus(run("a", 1.0, 0.03, 12345, BATCHES), List.of("0, NVIDIA H100 80GB HBM3, 550.54, 81559 MiB"));
        RunResult candidate = withGpus(run("b", 1.0, 0.03, 54321, BATCHES), List.of("0, NVIDIA H200, 550.54, 143771 MiB"));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> compare(baseline, candidate, CompareCommand.Options.DEFAULTS));
        assertTrue(e.getMessage().contains("GPU model differs"), e.getMessage());
    }

    @Test
    void cellsInOnlyOneRunAreListed() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, List.of(1, 2, 3));
        RunResult candidate = run("b", 1.0, 0.03, 54321, List.of(2, 3, 4));
        CompareResult r = compare(baseline, candidate, CompareCommand.Options.DEFAULTS);
        assertEquals(List.of("onnxruntime/cpu/tiny/seq64/batch1"), r.onlyInBaseline());
        assertEquals(List.of("onnxruntime/cpu/tiny/seq64/batch4"), r.onlyInCandidate());
        assertEquals(2, r.rows().size());
        String md = Files.readString(dir.resolve("out").resolve(CompareCommand.MARKDOWN_FILE));
        assertTrue(md.contains("only in the baseline: `onnxruntime/cpu/tiny/seq64/batch1`"), md);
        assertTrue(md.contains("only in the candidate: `onnxruntime/cpu/tiny/seq64/batch4`"), md);
    }

    @Test
    void aSchemaOneBaselineIsReadAndItsRegimesComputed() {
        RunResult v2 = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult v1 = new RunResult(1, v2.runId(), v2.startedAt(), v2.finishedAt(), v2.environment(), v2.config(), v2.cells());
        CompareResult r = compare(v1, run("b", 1.0, 0.03, 54321, BATCHES), CompareCommand.Options.DEFAULTS);
        assertNotNull(r.rows().get(0).baselineRegime());
    }

    @Test
    void compareMarkdownMatchesTheGoldenFile() throws IOException {
        compare(run("20261129-100000-aaaa", 1.0, 0.03, 12345, BATCHES), run("20261129-110000-bbbb", 1.2, 0.03, 54321, List.of(1, 2, 3)),
                CompareCommand.Options.DEFAULTS);
        String written = Files.readString(dir.resolve("out").resolve(CompareCommand.MARKDOWN_FILE));
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(Path.of("src/test/resources/golden/compare.md"), written);
            return;
        }
        try (InputStream golden = getClass().getResourceAsStream("/golden/compare.md")) {
            assertNotNull(golden, "golden file missing; regenerate with -Dgolden.update=true and review it");
            assertEquals(new String(golden.readAllBytes(), StandardCharsets.UTF_8), written);
        }
    }

    private static RunResult withModelSha(RunResult run, String sha) {
        RunConfig c = run.config();
        RunConfig config = new RunConfig(c.backends(), c.devices(),
                List.of(new RunConfig.ModelInfo("tiny", sha, c.models().get(0).sizeBytes(), c.models().get(0).description())),
                c.seqLens(), c.bucketsFile(), c.batches(), c.warmupPasses(), c.measuredPasses(), c.forks(), c.intraOpThreads(),
                c.interOpThreads(), c.seed(), c.allowCpuFallback(), c.forkJvmArgs(), c.skippedPairs(), c.mavenCommand(), c.jvmCommand());
        return new RunResult(run.schemaVersion(), run.runId(), run.startedAt(), run.finishedAt(), run.environment(), config,
                run.cells(), run.regimeThresholds(), run.fits(), run.seqScaling());
    }

    private static RunResult withGpus(RunResult run, List<String> gpus) {
        EnvironmentInfo e = run.environment();
        EnvironmentInfo environment = new EnvironmentInfo(e.os(), e.osVersion(), e.arch(), e.cpuModel(), e.logicalCores(),
                e.memoryBytes(), e.jvmVendor(), e.jvmVersion(), e.jvmName(), e.jmhVersion(), e.engines(), e.libraries(), gpus,
                "nvidia-smi");
        return new RunResult(run.schemaVersion(), run.runId(), run.startedAt(), run.finishedAt(), environment, run.config(),
                run.cells(), run.regimeThresholds(), run.fits(), run.seqScaling());
    }
}
