package io.inferbench.report;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.ChangeEstimate;
import io.inferbench.analysis.ChangeVerdict;
import io.inferbench.analysis.PercentileChange;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.measure.HistogramCodec;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code compare BASELINE.json CANDIDATE.json [OUT_DIR]}: did the candidate get slower, measured with the same
 * ruler? Writes {@code compare.json}, {@code compare.md} and an overlay plot, and says whether to fail a gate.
 *
 * <p>For every cell both runs measured, p50 and p99 are compared with {@link PercentileChange} (forks as the
 * unit of replication), with simultaneous (Bonferroni) intervals over all cells and both percentiles, since one
 * regressed cell fails the gate. A cell <em>regressed</em> when the change's whole confidence interval is above 0 and the change is
 * beyond the threshold (default 5%), for p50 or p99; <em>improved</em> is the mirror; anything else is no change.
 * Runs that are not comparable ({@link SameRuler}) are refused unless {@link Options#force()} is set, and then the
 * report carries a warning at the top.
 */
public final class CompareCommand {
    public static final String JSON_FILE = "compare.json";
    public static final String MARKDOWN_FILE = "compare.md";
    static final String METHOD = "each fork (a fresh JVM; forks are interleaved across the sweep) is one observation: its own "
            + "percentile, on a log scale. The interval is Welch's t-interval for the difference of the two runs' mean log "
            + "fork-percentiles, centred on the log ratio of the pooled percentiles. For p50, each run's fork-to-fork variance "
            + "is pooled over the batch sizes of the series; p99 uses each cell's own (a fork's p99 is nearly its maximum, "
            + "too heavy-tailed to pool). Degrees of freedom by Welch-Satterthwaite. "
            + "With a single fork on either side it falls back to a seeded bootstrap over the passes, which sees no "
            + "run-to-run noise.";

    /** How to compare: threshold in percent, confidence level, bootstrap replicates, and whether to override the ruler. */
    public record Options(double thresholdPercent, double confidenceLevel, int resamples, boolean force) {
        public static final Options DEFAULTS = new Options(5.0, 0.95, PercentileChange.DEFAULT_RESAMPLES, false);
        // confidenceLevel is family-wise: see perIntervalLevel.

        public Options {
            if (!(thresholdPercent >= 0)) {
                throw new BenchmarkException("-Dcompare.threshold must be a percentage of 0 or more, got " + thresholdPercent);
            }
            if (!(confidenceLevel > 0 && confidenceLevel < 1)) {
                throw new BenchmarkException("-Dcompare.confidence must be between 0 and 1, got " + confidenceLevel);
            }
            if (resamples < 100) {
                throw new BenchmarkException("-Dcompare.resamples must be at least 100, got " + resamples);
            }
        }

        public static Options fromProperties(java.util.Properties p) {
            try {
                return new Options(
                        Double.parseDouble(p.getProperty("compare.threshold", "5").trim()),
                        Double.parseDouble(p.getProperty("compare.confidence", "0.95").trim()),
                        Integer.parseInt(p.getProperty("compare.resamples", Integer.toString(PercentileChange.DEFAULT_RESAMPLES)).trim()),
                        Boolean.parseBoolean(p.getProperty("compare.force", "false").trim()));
            } catch (NumberFormatException e) {
                throw new BenchmarkException("compare.threshold, compare.confidence and compare.resamples must be numbers: " + e.getMessage(), e);
            }
        }
    }

    private CompareCommand() {
    }

    public static CompareResult run(Path baselineFile, Path candidateFile, Path outDir, Options options, PrintStream log) {
        RunResult baseline = RunStore.readRun(baselineFile);
        RunResult candidate = RunStore.readRun(candidateFile);
        SameRuler.Check ruler = SameRuler.check(baseline, candidate);
        if (!ruler.comparable() && !options.force()) {
            throw new BenchmarkException("The runs were not measured with the same ruler, so their numbers cannot be compared: "
                    + String.join("; ", ruler.incomparable()) + ". Compare runs from the same hardware and model, "
                    + "or pass -Dcompare.force=true to compare anyway (the report then carries a warning)");
        }
        CompareResult result = compare(baseline, baselineFile, candidate, candidateFile, ruler, options);
        try {
            Files.createDirectories(outDir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create the output folder " + outDir + ": " + e + ". Choose a writable one", e);
        }
        RunStore.writeAtomically(outDir.resolve(JSON_FILE), out -> Json.mapper().writeValue(out, result));
        List<Charts.ChartFile> charts = Charts.writeOverlay(baseline, candidate, outDir.resolve(ReportWriter.PLOTS_DIR));
        String markdown = CompareReport.render(result, charts, outDir);
        RunStore.writeAtomically(outDir.resolve(MARKDOWN_FILE), out -> out.write(markdown.getBytes(StandardCharsets.UTF_8)));
        CompareReport.printSummary(result, log);
        log.println("[inferbench] comparison written to " + outDir.resolve(MARKDOWN_FILE) + " and " + outDir.resolve(JSON_FILE));
        return result;
    }

    static CompareResult compare(RunResult baseline, Path baselineFile, RunResult candidate, Path candidateFile,
                                 SameRuler.Check ruler, Options options) {
        Map<String, CellResult> base = measuredByKey(baseline);
        Map<String, CellResult> cand = measuredByKey(candidate);
        Map<String, String> baseRegimes = regimes(baseline);
        Map<String, String> candRegimes = regimes(candidate);
        List<CompareResult.Row> rows = new ArrayList<>();
        List<String> onlyInBaseline = new ArrayList<>();
        List<String> onlyInCandidate = new ArrayList<>();
        for (CellResult c : baseline.cells()) {
            if (!cand.containsKey(c.id())) {
                onlyInBaseline.add(c.id() + (c.measured() ? (hasCell(candidate, c.id()) ? " (failed in the candidate)" : "") : " (failed in the baseline)"));
            }
        }
        for (CellResult c : candidate.cells()) {
            if (!base.containsKey(c.id())) {
                onlyInCandidate.add(c.id() + (c.measured() ? (hasCell(baseline, c.id()) ? " (failed in the baseline)" : "") : " (failed in the candidate)"));
            }
        }
        int improved = 0;
        int regressed = 0;
        int unchanged = 0;
        int intervals = 2 * (int) base.keySet().stream().filter(cand::containsKey).count();
        Map<String, PercentileChange.ForkSpread> spreads = pooledSpreads(base, cand);
        double perInterval = perIntervalLevel(options.confidenceLevel(), intervals);
        for (Map.Entry<String, CellResult> entry : base.entrySet()) {
            CellResult b = entry.getValue();
            CellResult c = cand.get(entry.getKey());
            if (c == null) {
                continue;
            }
            long seed = entry.getKey().hashCode() * 0x9E3779B97F4A7C15L;
            String series = seriesKey(b);
            ChangeEstimate p50 = PercentileChange.estimate(forks(b), forks(c), 50, perInterval, options.resamples(), seed,
                    spreads.get(series + "|b|50"), spreads.get(series + "|c|50"));
            // p99 keeps each cell's own spread: a fork's p99 over a few dozen passes is nearly its maximum, heavy-tailed
            // and unlike across batch sizes, so pooling it is not justified (on an A/A pair it produced a false flag).
            ChangeEstimate p99 = PercentileChange.estimate(forks(b), forks(c), 99, perInterval, options.resamples(), seed + 1);
            ChangeVerdict p50Verdict = p50.verdict(options.thresholdPercent());
            ChangeVerdict p99Verdict = p99.verdict(options.thresholdPercent());
            ChangeVerdict verdict = ChangeVerdict.combine(p50Verdict, p99Verdict);
            switch (verdict) {
                case IMPROVED -> improved++;
                case REGRESSED -> regressed++;
                case NO_CHANGE -> unchanged++;
            }
            rows.add(new CompareResult.Row(b.backend(), b.device(), b.model(), b.seqLen(), b.batch(), p50, p99,
                    p50Verdict, p99Verdict, verdict, baseRegimes.get(series), candRegimes.get(series)));
        }
        List<String> regimeChanges = new ArrayList<>();
        for (Map.Entry<String, String> r : baseRegimes.entrySet()) {
            String other = candRegimes.get(r.getKey());
            if (other != null && !other.equals(r.getValue())) {
                regimeChanges.add(r.getKey() + ": " + r.getValue() + " -> " + other);
            }
        }
        return new CompareResult(CompareResult.SCHEMA_VERSION,
                new CompareResult.RunRef(baseline.runId(), baselineFile.toString(), baseline.startedAt()),
                new CompareResult.RunRef(candidate.runId(), candidateFile.toString(), candidate.startedAt()),
                options.thresholdPercent(), options.confidenceLevel(), intervals, perInterval, options.resamples(), METHOD,
                ruler, !ruler.comparable(),
                rows, onlyInBaseline, onlyInCandidate, regimeChanges, improved, regressed, unchanged, regressed > 0);
    }

    /**
     * Each side's fork-to-fork spread of log p50, pooled over the shared cells of each series (the batch sizes of one
     * engine, device, model and seq), keyed {@code series|b|50} and {@code series|c|50}.
     */
    static Map<String, PercentileChange.ForkSpread> pooledSpreads(Map<String, CellResult> base, Map<String, CellResult> cand) {
        Map<String, List<double[]>> logs = new LinkedHashMap<>();
        for (Map.Entry<String, CellResult> entry : base.entrySet()) {
            CellResult c = cand.get(entry.getKey());
            if (c == null) {
                continue;
            }
            String series = seriesKey(entry.getValue());
            logs.computeIfAbsent(series + "|b|50", k -> new ArrayList<>())
                    .add(PercentileChange.forkLogPercentiles(forks(entry.getValue()), 50));
            logs.computeIfAbsent(series + "|c|50", k -> new ArrayList<>())
                    .add(PercentileChange.forkLogPercentiles(forks(c), 50));
        }
        Map<String, PercentileChange.ForkSpread> spreads = new LinkedHashMap<>();
        logs.forEach((key, cells) -> {
            PercentileChange.ForkSpread spread = PercentileChange.pool(cells);
            if (spread != null) {
                spreads.put(key, spread);
            }
        });
        return spreads;
    }

    /**
     * Bonferroni: each of {@code intervals} intervals at {@code 1 - (1 - familyLevel) / intervals}, so that all of them
     * hold together with probability at least {@code familyLevel}. A gate fails on any one cell, so it is the
     * family of intervals whose error rate must be bounded, not each one.
     */
    static double perIntervalLevel(double familyLevel, int intervals) {
        return intervals <= 1 ? familyLevel : 1 - (1 - familyLevel) / intervals;
    }

    private static boolean hasCell(RunResult run, String id) {
        return run.cells().stream().anyMatch(c -> c.id().equals(id));
    }

    private static Map<String, CellResult> measuredByKey(RunResult run) {
        Map<String, CellResult> cells = new LinkedHashMap<>();
        run.cells().stream().filter(CellResult::measured).forEach(c -> cells.put(c.id(), c));
        return cells;
    }

    /** Each fork's histogram, or the merged one when the run kept no per-fork data (one fork, or schema 1). */
    private static List<Histogram> forks(CellResult cell) {
        List<String> encoded = cell.forkHistogramsNs() != null ? cell.forkHistogramsNs() : List.of(cell.histogramNs());
        return encoded.stream().map(HistogramCodec::decode).toList();
    }

    private static String seriesKey(CellResult c) {
        return c.backend() + "/" + c.device() + "/" + c.model() + "/seq" + c.seqLen();
    }

    /** Regime per series: the run's stored analysis, or one computed with default thresholds for older runs. */
    private static Map<String, String> regimes(RunResult run) {
        Analysis analysis = run.analysis() != null ? run.analysis() : RunAnalysis.analyze(run, RegimeThresholds.DEFAULTS);
        Map<String, String> regimes = new LinkedHashMap<>();
        for (SeriesFit f : analysis.fits()) {
            regimes.put(f.backend() + "/" + f.device() + "/" + f.model() + "/seq" + f.seqLen(), f.regime().label());
        }
        return regimes;
    }
}
