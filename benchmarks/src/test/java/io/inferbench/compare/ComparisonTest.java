package io.inferbench.compare;

import io.inferbench.BenchmarkException;
import io.inferbench.Locales;
import io.inferbench.analysis.Regime;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.cli.Settings;
import io.inferbench.measure.ColdStart;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.EnvironmentInfo;
import io.inferbench.results.Json;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.SampleRuns;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SlaBoundary;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Comparisons of synthetic runs whose truth is known: same distribution, 20% slower, noisier, incomparable. */
class ComparisonTest {
    private static final CompareOptions DEFAULTS = Settings.compare(new Properties());
    private static final int FORKS = 3;
    private static final int PASSES_PER_FORK = 150;

    @TempDir
    Path dir;

    @AfterEach
    void restoreLocale() {
        Locales.restore();
    }

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(console, true, StandardCharsets.UTF_8);

    /**
     * A run over seq 64 x batch 1..4 whose pass latencies are log-normal around {@code scale * base(batch)}, with
     * each fork shifted by a random factor (JVM-to-JVM noise of {@code forkNoise}, relative).
     */
    static RunResult run(String runId, double scale, double forkNoise, long seed, List<Integer> batches) {
        return run(runId, scale, forkNoise, seed, batches, FORKS, PASSES_PER_FORK);
    }

    static RunResult run(String runId, double scale, double forkNoise, long seed, List<Integer> batches, int forkCount,
                         int passesPerFork) {
        RunResult template = SampleRuns.sampleRun();
        Random random = new Random(seed);
        List<CellResult> cells = new ArrayList<>();
        for (int batch : batches) {
            Histogram merged = PassRecorder.newHistogram();
            List<String> forks = new ArrayList<>();
            for (int f = 0; f < forkCount; f++) {
                Histogram fork = PassRecorder.newHistogram();
                double centreNs = scale * 2_000_000.0 * batch * (1 + forkNoise * random.nextGaussian());
                for (int i = 0; i < passesPerFork; i++) {
                    fork.recordValue(Math.round(centreNs * Math.exp(0.08 * random.nextGaussian())));
                }
                merged.add(fork);
                forks.add(HistogramCodec.encode(fork));
            }
            LatencySummary l = LatencySummary.of(merged);
            cells.add(new CellResult(CellStatus.OK, null, new CellResult.Identity("onnxruntime", "cpu", "tiny", "ab".repeat(32), 64,
                    batch), new CellResult.Counts(forkCount, 20L * forkCount, (long) passesPerFork * forkCount),
                    new CellResult.Latency(l, l, batch * 1000 / l.meanMs()), List.of(new ColdStart(400, 200, 5)),
                    io.inferbench.results.SampleRuns.ORT_SESSION, new CellResult.Histograms(HistogramCodec.encode(merged), forks),
                    CellResult.ForkRecords.NONE));
        }
        RunConfig t = template.config();
        RunConfig config = t.withPlan(t.plan().withBatches(batches)).withRules(t.rules().withCounts(20, passesPerFork, forkCount));
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, runId, "2026-11-29T10:00:00Z", "2026-11-29T10:05:00Z",
                template.environment(), config, cells);
        return run.withAnalysis(RunAnalysis.analyze(run, Settings.defaultRegime()));
    }

    private Path write(RunResult run, String name) {
        Path file = dir.resolve(name + ".json");
        RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, run));
        return file;
    }

    /** {@code run} with the cell at {@code batch} holding one fork that other processes disturbed (40% of the machine). */
    private static RunResult disturbing(RunResult run, int batch) {
        io.inferbench.measure.MeasureOutcome disturbed = new io.inferbench.measure.MeasureOutcome(150, 1000, 900, null, 1.0, 0.95,
                io.inferbench.measure.MeasureEnd.PRECISE, new io.inferbench.probe.CpuUse(1000, 990.0, 99.0, 800.0, 40.0, List.of()),
                null, null, List.of());
        List<CellResult> cells = run.cells().stream().map(c -> c.batch() != batch ? c
                : c.withForkRuns(List.of(new io.inferbench.results.CellFork(1, 1, 0, 1.0, null, disturbed)))).toList();
        return run.withCells(cells, run.finishedAt());
    }

    @Test
    void aCellWhoseDataIsDoubtedIsNotResolvedUnlessItsIntervalProvesAChange() throws IOException {
        CompareResult same = compare(run("a", 1.0, 0.01, 11, BATCHES), disturbing(run("b", 1.0, 0.01, 12, BATCHES), 2), DEFAULTS);
        CompareResult.Row doubted = same.rows().stream().filter(r -> r.batch() == 2).findFirst().orElseThrow();
        assertEquals(ChangeVerdict.NOT_RESOLVED, doubted.p50Verdict(), doubted.toString());
        assertTrue(doubted.doubted().startsWith("1 fork(s) of the candidate kept disturbed"), doubted.doubted());
        CompareResult.Row quiet = same.rows().stream().filter(r -> r.batch() == 1).findFirst().orElseThrow();
        assertNull(quiet.doubted());
        String md = Files.readString(dir.resolve("out").resolve("compare.md"));
        assertTrue(md.contains("## Cells whose data the runs doubt"), md);
        assertTrue(md.contains("batch 2: 1 fork(s) of the candidate kept disturbed"), md);

        CompareResult slower = compare(run("a", 1.0, 0.01, 11, BATCHES), disturbing(run("b", 1.5, 0.01, 12, BATCHES), 2), DEFAULTS);
        CompareResult.Row proven = slower.rows().stream().filter(r -> r.batch() == 2).findFirst().orElseThrow();
        assertEquals(ChangeVerdict.REGRESSED, proven.verdict(), "a change the interval proves stands: " + proven);
    }

    private CompareResult compare(RunResult baseline, RunResult candidate, CompareOptions options) {
        return Comparison.run(write(baseline, "baseline"), write(candidate, "candidate"), dir.resolve("out"), options, log);
    }

    private static final List<Integer> BATCHES = List.of(1, 2, 3, 4);

    @Test
    void aRunComparedWithItselfShowsNoChange() {
        RunResult run = run("a", 1.0, 0.03, 12345, BATCHES);
        CompareResult r = compare(run, run, DEFAULTS);
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
                    DEFAULTS);
            assertEquals(BATCHES.size(), r.unchanged(), "seed " + seed + ": " + console);
        }
    }

    @Test
    void twentyPercentSlowerIsASignificantRegressionAndFailsTheGate() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult candidate = run("b", 1.2, 0.03, 12345, BATCHES); // the baseline's samples, each 20% slower
        CompareResult r = compare(baseline, candidate, DEFAULTS);
        assertTrue(r.regressed());
        for (CompareResult.Row row : r.rows()) {
            assertEquals(ChangeVerdict.REGRESSED, row.p50Verdict(), "batch " + row.batch());
            assertTrue(row.p50().ciLowPercent() > 0 && row.p50().changePercent() > 5, "batch " + row.batch() + ": " + row.p50());
        }
        int exit = io.inferbench.cli.InferbenchMainAccess.run("compare", dir.resolve("baseline.json").toString(),
                dir.resolve("candidate.json").toString(), dir.resolve("gate").toString());
        assertEquals(1, exit, "a regression must give a non-zero exit code");
        String md = Files.readString(dir.resolve("gate").resolve(Comparison.MARKDOWN_FILE));
        assertTrue(md.startsWith("# inferbench compare: regression: 4 regression, 0 no regression shown, 0 undecided of 4 cell(s)")
                && md.contains("**REGRESSION**"), md);
    }

    @Test
    void aNoisyCandidateWithTheSameMedianIsNotFlagged() {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult noisy = run("b", 1.0, 0.15, 777, BATCHES);
        CompareResult r = compare(baseline, noisy, DEFAULTS);
        assertFalse(r.regressed(), console.toString(StandardCharsets.UTF_8));
        r.rows().forEach(row -> assertTrue(row.p50().ciHighPercent() - row.p50().ciLowPercent() > 10,
                "fork-to-fork noise must widen the interval: " + row.p50()));
    }

    @Test
    void differentModelHashesAreRefusedUnlessForced() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult other = withModelSha(run("b", 1.0, 0.03, 54321, BATCHES), "cd".repeat(32));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> compare(baseline, other, DEFAULTS));
        assertTrue(e.getMessage().contains("model tiny differs: SHA-256 " + "ab".repeat(32)), e.getMessage());
        assertTrue(e.getMessage().contains("-Dcompare.force=true"), e.getMessage());

        CompareResult forced = compare(baseline, other, DEFAULTS.withForce(true));
        assertTrue(forced.overridden());
        String md = Files.readString(dir.resolve("out").resolve(Comparison.MARKDOWN_FILE));
        assertTrue(md.lines().skip(2).findFirst().orElseThrow().startsWith("> **WARNING: these runs are not comparable**"), md);
    }

    @Test
    void singleForkRunsAreRefusedUnlessForced() {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES);
        RunConfig c = baseline.config();
        RunConfig oneFork = c.withRules(c.rules().withCounts(c.rules().warmupPasses(), c.rules().measuredPasses(), 1));
        RunResult single = baseline.withConfig(oneFork).withIdentity(baseline.schemaVersion(), "b");
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> compare(baseline, single, DEFAULTS));
        assertTrue(e.getMessage().contains("with one fork the interval cannot include run-to-run noise"), e.getMessage());
    }

    @Test
    void differentGpuModelsAreRefused() {
        RunResult baseline = withGpus(run("a", 1.0, 0.03, 12345, BATCHES), List.of("0, NVIDIA H100 80GB HBM3, 550.54, 81559 MiB"));
        RunResult candidate = withGpus(run("b", 1.0, 0.03, 54321, BATCHES), List.of("0, NVIDIA H200, 550.54, 143771 MiB"));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> compare(baseline, candidate, DEFAULTS));
        assertTrue(e.getMessage().contains("GPU model differs"), e.getMessage());
    }

    @Test
    void cellsInOnlyOneRunAreListed() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, List.of(1, 2, 3));
        RunResult candidate = run("b", 1.0, 0.03, 54321, List.of(2, 3, 4));
        CompareResult r = compare(baseline, candidate, DEFAULTS);
        assertEquals(List.of("onnxruntime/cpu/tiny/seq64/batch1"), r.onlyInBaseline());
        assertEquals(List.of("onnxruntime/cpu/tiny/seq64/batch4"), r.onlyInCandidate());
        assertEquals(2, r.rows().size());
        String md = Files.readString(dir.resolve("out").resolve(Comparison.MARKDOWN_FILE));
        assertTrue(md.contains("only in the baseline: `onnxruntime/cpu/tiny/seq64/batch1`"), md);
        assertTrue(md.contains("only in the candidate: `onnxruntime/cpu/tiny/seq64/batch4`"), md);
    }

    @Test
    void aSchemaOneBaselineIsReadAndItsRegimesComputed() {
        RunResult v2 = run("a", 1.0, 0.03, 12345, BATCHES);
        RunResult v1 = new RunResult(1, v2.runId(), v2.startedAt(), v2.finishedAt(), v2.environment(), v2.config(), v2.cells());
        CompareResult r = compare(v1, run("b", 1.0, 0.03, 54321, BATCHES), DEFAULTS);
        assertNotNull(r.rows().get(0).baselineRegime());
    }

    @ParameterizedTest
    @MethodSource("io.inferbench.Locales#all")
    void compareMarkdownMatchesTheGoldenFileUnderEveryLocale(Locale locale) throws IOException {
        Locales.use(locale);
        compare(run("20261129-100000-aaaa", 1.0, 0.03, 12345, BATCHES), run("20261129-110000-bbbb", 1.2, 0.03, 54321, List.of(1, 2, 3)),
                DEFAULTS);
        String written = Files.readString(dir.resolve("out").resolve(Comparison.MARKDOWN_FILE));
        if (Boolean.getBoolean("golden.update") && locale.equals(Locale.ROOT)) {
            Files.writeString(Path.of("src/test/resources/golden/compare.md"), written);
            return;
        }
        try (InputStream golden = getClass().getResourceAsStream("/golden/compare.md")) {
            assertNotNull(golden, "golden file missing; regenerate with -Dgolden.update=true and review it");
            assertEquals(new String(golden.readAllBytes(), StandardCharsets.UTF_8), written, "locale " + locale);
        }
    }

    /** 15 passes x 2 forks, as in the report that printed -30.2% [-100.0, +274593622285.2] for a p99. */
    @Test
    void aPercentileThePassesCannotResolveGetsNoIntervalAndNoVote() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES, 2, 15);
        RunResult candidate = run("b", 1.3, 0.03, 54321, BATCHES, 2, 15);
        CompareResult r = compare(baseline, candidate, DEFAULTS.withForce(false));
        for (CompareResult.Row row : r.rows()) {
            assertFalse(row.p99().resolved(), row.p99().toString());
            assertNull(row.p99().ciLowPercent());
            assertEquals("needs ≥ 100 passes per fork; the baseline has 15", row.p99().notResolved());
            assertEquals(ChangeVerdict.NOT_RESOLVED, row.p99Verdict());
            assertEquals(row.p50Verdict() == ChangeVerdict.NOT_RESOLVED ? ChangeVerdict.NOT_RESOLVED : row.p50Verdict(),
                    row.verdict(), "the verdict rests on p50 alone");
        }
        String md = Files.readString(dir.resolve("out").resolve(Comparison.MARKDOWN_FILE));
        assertTrue(md.contains("not resolved (needs ≥ 100 passes per fork; the baseline has 15)"), md);
    }

    /**
     * Over runs from 2 to 5 forks and 15 to 150 passes per fork, every interval that is printed is one the data can
     * support, checked independently of the code under test: each fork on both sides has at least ceil(1/(1-p)) passes
     * (so the fork's percentile is not its maximum), Welch-Satterthwaite's degrees of freedom recomputed here from the
     * fork percentiles are above 2 (Student's t has a finite variance), and the bounds are finite with the lower one above
     * -100%. Everything else is printed as "not resolved".
     */
    @Test
    void noPrintedIntervalIsWiderThanTheDataSupports() throws IOException {
        int printed = 0;
        int refused = 0;
        for (int forks : new int[] {2, 3, 5}) {
            for (int passes : new int[] {15, 40, 150}) {
                RunResult baseline = run("a", 1.0, 0.05, 1000L * forks + passes, BATCHES, forks, passes);
                RunResult candidate = run("b", 1.1, 0.05, 7000L * forks + passes, BATCHES, forks, passes);
                CompareResult r = compare(baseline, candidate, DEFAULTS);
                String md = Files.readString(dir.resolve("out").resolve(Comparison.MARKDOWN_FILE));
                for (CompareResult.Row row : r.rows()) {
                    CellResult b = cell(baseline, row.batch());
                    CellResult c = cell(candidate, row.batch());
                    for (double p : new double[] {50, 99}) {
                        ChangeEstimate e = p == 50 ? row.p50() : row.p99();
                        boolean enoughPasses = passes >= Math.ceil(1 / (1 - p / 100) - 1e-9);
                        if (!e.resolved()) {
                            refused++;
                            assertTrue(md.contains("not resolved (" + e.notResolved() + ")"), md);
                            continue;
                        }
                        printed++;
                        assertTrue(enoughPasses, forks + " forks x " + passes + " passes, p" + p + ": " + e);
                        if (p == 99) {
                            assertTrue(welchDof(b, c, p) > 2, "p99 interval with " + forks + " forks: " + e);
                        }
                        assertTrue(Double.isFinite(e.ciLowPercent()) && Double.isFinite(e.ciHighPercent()), e.toString());
                        assertTrue(e.ciLowPercent() > -100, e.toString());
                        assertTrue(md.contains(CompareReport.change(e)), md);
                    }
                }
            }
        }
        assertTrue(printed > 0 && refused > 0, printed + " printed, " + refused + " refused: both cases must occur");
    }

    private static CellResult cell(RunResult run, int batch) {
        return run.cells().stream().filter(c -> c.batch() == batch).findFirst().orElseThrow();
    }

    /** Welch-Satterthwaite from each side's fork log-percentiles (nearest rank over the fork's recorded values). */
    private static double welchDof(CellResult b, CellResult c, double p) {
        double[] vb = forkLogVariance(b, p);
        double[] vc = forkLogVariance(c, p);
        double sb = vb[0] / vb[1];
        double sc = vc[0] / vc[1];
        return (sb + sc) * (sb + sc) / (sb * sb / (vb[1] - 1) + sc * sc / (vc[1] - 1));
    }

    /** {sample variance of the forks' log percentiles, number of forks}. */
    private static double[] forkLogVariance(CellResult cell, double p) {
        double[] logs = cell.forkHistogramsNs().stream().map(HistogramCodec::decode).mapToDouble(h -> {
            List<Long> values = new ArrayList<>();
            h.recordedValues().forEach(v -> {
                for (long i = 0; i < v.getCountAtValueIteratedTo(); i++) {
                    values.add(h.highestEquivalentValue(v.getValueIteratedTo()));
                }
            });
            values.sort(null);
            int rank = (int) Math.ceil(p / 100 * values.size());
            return Math.log(values.get(Math.max(rank, 1) - 1));
        }).toArray();
        double mean = java.util.Arrays.stream(logs).average().orElseThrow();
        double ss = java.util.Arrays.stream(logs).map(l -> (l - mean) * (l - mean)).sum();
        return new double[] {ss / (logs.length - 1), logs.length};
    }

    @Test
    void aBorderlineVerdictAndItsNeighbourAreNotARegimeChange() {
        SeriesFit borderline = fit(Regime.COMPUTE_BOUND, true, List.of(Regime.TRANSITIONAL));
        SeriesFit transitional = fit(Regime.TRANSITIONAL, false, List.of());
        SeriesFit memory = fit(Regime.MEMORY_BOUND, false, List.of());
        SeriesKey key = borderline.series();
        assertEquals(List.of(), Comparison.regimeChanges(Map.of(key, borderline), Map.of(key, transitional)));
        assertEquals(List.of(), Comparison.regimeChanges(Map.of(key, transitional), Map.of(key, borderline)));
        assertEquals(List.of("onnxruntime/cpu/tiny/seq64: compute-bound, borderline -> memory-bound"),
                Comparison.regimeChanges(Map.of(key, borderline), Map.of(key, memory)));
        assertEquals(List.of("onnxruntime/cpu/tiny/seq64: transitional -> memory-bound"),
                Comparison.regimeChanges(Map.of(key, transitional), Map.of(key, memory)));
    }

    private static SeriesFit fit(Regime regime, boolean borderline, List<Regime> with) {
        return new SeriesFit(new SeriesKey("onnxruntime", "cpu", "tiny", 64), new SeriesFit.Points(List.of(1, 2, 4),
                List.of(1.0, 2.0, 4.0), List.of(1.0, 2.0, 4.0)), null, null, new SeriesFit.Gains(List.of(), List.of()), null, null,
                new SeriesFit.Verdict(regime, "test", regime.advice(), borderline, with));
    }

    /** Serving points with the same parameters are set side by side; they never fail the gate. */
    @Test
    void servingPointsBothRunsShareAreListedWithoutAVerdict() throws IOException {
        RunResult baseline = run("a", 1.0, 0.03, 12345, BATCHES).withServing(serving(4.0, 900.0));
        RunResult candidate = run("b", 1.0, 0.03, 54321, BATCHES).withServing(serving(8.0, 450.0));
        CompareResult r = compare(baseline, candidate, DEFAULTS);
        assertFalse(r.regressed(), "serving changes never fail the gate");
        assertEquals(1, r.serving().size());
        ServingChange change = r.serving().get(0);
        assertEquals(100.0, change.p99ChangePercent(), 0.1, "HdrHistogram values to 3 significant digits");
        assertEquals(List.of(new ServingChange.Boundary("onnxruntime/cpu/tiny batch<=8 wait 5 ms", 10.0, 900.0, 450.0)),
                r.slaBoundaries());
        String md = Files.readString(dir.resolve("out").resolve(Comparison.MARKDOWN_FILE));
        assertTrue(md.contains("## Serving points both runs measured") && md.contains("max rate 900.0 -> 450.0 requests/s"), md);
    }

    private static ServingResult serving(double p99Ms, double maxRate) {
        Histogram h = PassRecorder.newHistogram();
        for (int i = 0; i < 99; i++) {
            h.recordValue(1_000_000);
        }
        h.recordValue(Math.round(p99Ms * 1e6));
        h.recordValue(Math.round(p99Ms * 1e6));
        LatencySummary l = LatencySummary.of(h);
        LoadPointResult point = new LoadPointResult(new SeriesKey("onnxruntime", "cpu", "tiny", 64),
                new LoadPointResult.Load("batching", "batch<=8 wait 5 ms", 1, 200.0, 5.0, 8, "point", 5),
                new LoadPointResult.Requests(1000, 1000, 0, null, 0, 0),
                new LoadPointResult.Pacing(true, false, null, true, 200.0, 200.0, false, 199.0),
                new LoadPointResult.Latency(l, l, Map.of(), Map.of(1, 1000L), 1.0), null, null, null);
        SlaBoundary boundary = new SlaBoundary(new SlaBoundary.Searched("onnxruntime", "cpu", "tiny", "batch<=8 wait 5 ms", 1, 5.0, 8, 10),
                new SlaBoundary.Found(maxRate, 1.0, p99Ms, 2.0, true, SlaBoundary.MEASURED, false, 3.33),
                new SlaBoundary.Forecast(null, null), List.of(), null, null, null);
        return new ServingResult(List.of(), List.of(point), List.of(boundary));
    }

    private static RunResult withModelSha(RunResult run, String sha) {
        RunConfig c = run.config();
        RunConfig.ModelInfo model = c.plan().models().get(0);
        return run.withConfig(c.withModels(List.of(new RunConfig.ModelInfo("tiny", sha, model.sizeBytes(), model.description()))));
    }

    private static RunResult withGpus(RunResult run, List<String> gpus) {
        EnvironmentInfo e = run.environment();
        EnvironmentInfo environment = new EnvironmentInfo(e.machine(), e.jvm(), e.engines(), e.libraries(), gpus,
                "nvidia-smi", e.cpu());
        return run.withEnvironment(environment);
    }
}
