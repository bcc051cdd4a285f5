package io.inferbench.compare;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.report.Charts;
import io.inferbench.report.ReportWriter;
import io.inferbench.results.CellResult;
import io.inferbench.results.Json;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
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
 * Did the candidate get slower, measured with the same ruler? Writes {@code compare.json}, {@code compare.md} and an
 * overlay plot, and says whether to fail a gate.
 *
 * <p>For every cell both runs measured, p50 and p99 are compared with {@link PercentileChange} (forks as the
 * unit of replication), with simultaneous (Bonferroni) intervals over all cells and both percentiles, since one
 * regressed cell fails the gate. A cell <em>regressed</em> when the change's whole confidence interval is above 0 and
 * the change is beyond the threshold (default 5%), for p50 or p99; <em>improved</em> is the mirror; anything else is no
 * change. A percentile the data cannot resolve gets no interval and no say in the verdict. Runs that are not comparable
 * ({@link SameRuler}) are refused unless {@link CompareOptions#force()} is set, and then the report carries a warning at
 * the top.
 */
public final class Comparison {
    public static final String JSON_FILE = "compare.json";
    public static final String MARKDOWN_FILE = "compare.md";
    static final String METHOD = "each fork (a fresh JVM; forks are interleaved across the sweep) is one observation: its own "
            + "percentile, on a log scale. The interval is Welch's t-interval for the difference of the two runs' mean log "
            + "fork-percentiles, centred on the log ratio of the pooled percentiles. For p50, each run's fork-to-fork variance "
            + "is pooled over the batch sizes of the series; p99 uses each cell's own (a fork's p99 is nearly its maximum, "
            + "too heavy-tailed to pool). Degrees of freedom by Welch-Satterthwaite. A percentile is not resolved, and takes "
            + "no part in the verdict, when a fork has too few passes for it to differ from the fork's maximum (p50: 2, "
            + "p99: 100, p99.9: 1000 passes), or when the degrees of freedom are 2 or fewer. "
            + "With a single fork on either side it falls back to a seeded bootstrap over the passes, which sees no "
            + "run-to-run noise.";

    private Comparison() {
    }

    public static CompareResult run(Path baselineFile, Path candidateFile, Path outDir, CompareOptions options, PrintStream log) {
        return run(RunStore.readRun(baselineFile), baselineFile, RunStore.readRun(candidateFile), candidateFile, outDir, options,
                log);
    }

    /** As above, for runs already read: the files only name them in the result. */
    public static CompareResult run(RunResult baseline, Path baselineFile, RunResult candidate, Path candidateFile, Path outDir,
                                    CompareOptions options, PrintStream log) {
        requireData(baseline, baselineFile, "baseline");
        requireData(candidate, candidateFile, "candidate");
        SameRuler.Check ruler = SameRuler.check(baseline, candidate, options.codeChange());
        if (!ruler.comparable() && !options.force()) {
            throw new BenchmarkException("The runs were not measured with the same ruler, so their numbers cannot be compared: "
                    + String.join("; ", ruler.incomparable()) + ". Compare runs from the same hardware and model, "
                    + "or pass -Dcompare.force=true to compare anyway (the report then carries a warning)");
        }
        CompareResult result = compare(baseline, baselineFile, candidate, candidateFile, ruler, options);
        if (result.rows().isEmpty()) {
            // Nothing compared is no evidence of "no regression": a gate must not pass on it.
            throw new BenchmarkException("The runs have no measured cell in common, so nothing could be compared (cells are "
                    + "matched by engine, device, model, sequence length and batch): only in the baseline "
                    + brief(result.onlyInBaseline()) + "; only in the candidate " + brief(result.onlyInCandidate())
                    + ". Compare runs of the same models and shapes");
        }
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

    /**
     * Refuses a run with a cell recorded as measured that holds no measurement (no histogram): a run file edited or
     * written by something else, which no comparison, forced or not, can read.
     */
    static void requireData(RunResult run, Path file, String side) {
        List<String> empty = run.cells().stream().filter(CellResult::measured)
                .filter(c -> c.histogramNs() == null || c.histogramNs().isBlank()).map(CellResult::id).toList();
        if (!empty.isEmpty()) {
            throw new BenchmarkException("The " + side + " " + file + " records " + empty.size() + " cell(s) as measured that "
                    + "hold no measurement (no histogramNs): " + brief(empty) + ". It was not written whole by inferbench; "
                    + "compare runs as a run writes them");
        }
    }

    private static String brief(List<String> cells) {
        return cells.isEmpty() ? "none" : cells.size() <= 3 ? String.join(", ", cells)
                : String.join(", ", cells.subList(0, 3)) + " and " + (cells.size() - 3) + " more";
    }

    static CompareResult compare(RunResult baseline, Path baselineFile, RunResult candidate, Path candidateFile,
                                 SameRuler.Check ruler, CompareOptions options) {
        Map<String, CellResult> base = measuredById(baseline);
        Map<String, CellResult> cand = measuredById(candidate);
        Map<SeriesKey, SeriesFit> baseFits = fits(baseline, options);
        Map<SeriesKey, SeriesFit> candFits = fits(candidate, options);
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
        int intervals = 2 * (int) base.keySet().stream().filter(cand::containsKey).count();
        Map<SeriesKey, PooledSpreads> spreads = pooledP50Spreads(base, cand);
        double perInterval = perIntervalLevel(options.confidenceLevel(), intervals);
        List<CompareResult.Row> rows = new ArrayList<>();
        int improved = 0;
        int regressed = 0;
        int unchanged = 0;
        int notResolved = 0;
        for (Map.Entry<String, CellResult> entry : base.entrySet()) {
            CellResult b = entry.getValue();
            CellResult c = cand.get(entry.getKey());
            if (c == null) {
                continue;
            }
            long seed = entry.getKey().hashCode() * 0x9E3779B97F4A7C15L;
            PooledSpreads pooled = spreads.get(b.series());
            ChangeEstimate p50 = PercentileChange.estimate(forks(b), forks(c), 50, perInterval, options.resamples(), seed,
                    pooled == null ? null : pooled.baseline(), pooled == null ? null : pooled.candidate());
            // p99 keeps each cell's own spread: a fork's p99 over a few dozen passes is nearly its maximum, heavy-tailed
            // and unlike across batch sizes, so pooling it is not justified (on an A/A pair it produced a false flag).
            ChangeEstimate p99 = PercentileChange.estimate(forks(b), forks(c), 99, perInterval, options.resamples(), seed + 1);
            ChangeVerdict p50Verdict = p50.verdict(options.thresholdPercent());
            ChangeVerdict p99Verdict = p99.verdict(options.thresholdPercent());
            String doubted = doubted(b, "the baseline", c, "the candidate");
            if (doubted != null) {
                // Doubted data keeps "no change" unproven; a change its interval proves stands.
                p50Verdict = p50Verdict == ChangeVerdict.NO_CHANGE ? ChangeVerdict.NOT_RESOLVED : p50Verdict;
                p99Verdict = p99Verdict == ChangeVerdict.NO_CHANGE ? ChangeVerdict.NOT_RESOLVED : p99Verdict;
            }
            ChangeVerdict verdict = ChangeVerdict.combine(p50Verdict, p99Verdict);
            switch (verdict) {
                case IMPROVED -> improved++;
                case REGRESSED -> regressed++;
                case NO_CHANGE -> unchanged++;
                case NOT_RESOLVED -> notResolved++;
            }
            SeriesFit baseFit = baseFits.get(b.series());
            SeriesFit candFit = candFits.get(b.series());
            rows.add(new CompareResult.Row(b.backend(), b.device(), b.model(), b.seqLen(), b.batch(), p50, p99,
                    p50Verdict, p99Verdict, verdict, baseFit == null ? null : baseFit.verdictLabel(),
                    candFit == null ? null : candFit.verdictLabel(), doubted,
                    decide(p50, p50Verdict, p99, p99Verdict, keptDisturbed(b, "the baseline", c, "the candidate"), options)));
        }
        List<GateDecision> decisions = new ArrayList<>(rows.stream().map(r -> r.gate().decision()).toList());
        int failedInCandidate = (int) baseline.cells().stream().filter(c -> c.measured() && hasCell(candidate, c.id())
                && !cand.containsKey(c.id())).count();
        for (int i = 0; i < failedInCandidate; i++) {
            decisions.add(GateDecision.FAILED);
        }
        GateDecision overall = GateDecision.overall(decisions);
        String headline = GateDecision.headline(decisions, d -> d);
        CompareResult.Gate gate = new CompareResult.Gate(options.gateP99() ? "p50,p99" : "p50", overall, headline,
                (int) decisions.stream().filter(d -> d == GateDecision.UNDECIDED).count(), failedInCandidate);
        return new CompareResult(CompareResult.SCHEMA_VERSION,
                new CompareResult.RunRef(baseline.runId(), baselineFile.toString(), baseline.startedAt()),
                new CompareResult.RunRef(candidate.runId(), candidateFile.toString(), candidate.startedAt()),
                new CompareResult.Statistics(options.thresholdPercent(), options.confidenceLevel(), intervals, perInterval,
                        options.resamples(), METHOD), ruler, !ruler.comparable(), rows,
                new CompareResult.Unshared(onlyInBaseline, onlyInCandidate, regimeChanges(baseFits, candFits)),
                new CompareResult.Counts(improved, regressed, unchanged, notResolved), regressed > 0,
                new CompareResult.ServingSide(ServingChange.points(baseline, candidate), ServingChange.boundaries(baseline, candidate)),
                gate);
    }

    /**
     * The gate's decision about one cell ({@link GateDecision}): a regression when either percentile's verdict is one; a
     * pass when the p50's interval (and with {@link CompareOptions#gateP99} the p99's) lies wholly below the threshold
     * and no fork of either run was kept disturbed, or the runs prove a change; undecided otherwise, saying what is
     * missing. A fork set aside and measured again, or departed and measured again, kept an undisturbed measurement:
     * no doubt here (it keeps a {@code no change} verdict {@code not resolved}, which claims more).
     *
     * @param keptDisturbed which forks of either run were kept disturbed; null when none was
     */
    static CellGate decide(ChangeEstimate p50, ChangeVerdict p50Verdict, ChangeEstimate p99, ChangeVerdict p99Verdict,
                           String keptDisturbed, CompareOptions options) {
        if (p50Verdict == ChangeVerdict.REGRESSED || p99Verdict == ChangeVerdict.REGRESSED) {
            ChangeEstimate shown = p50Verdict == ChangeVerdict.REGRESSED ? p50 : p99;
            return new CellGate(GateDecision.REGRESSION, Text.f("%s %+.1f%% [%+.1f, %+.1f], beyond %s%%",
                    p50Verdict == ChangeVerdict.REGRESSED ? "p50" : "p99", shown.changePercent(), shown.ciLowPercent(),
                    shown.ciHighPercent(), Text.plain(options.thresholdPercent())), null);
        }
        List<String> missing = new ArrayList<>();
        List<String> passes = new ArrayList<>();
        for (int i = 0; i < (options.gateP99() ? 2 : 1); i++) {
            ChangeEstimate change = i == 0 ? p50 : p99;
            ChangeVerdict verdict = i == 0 ? p50Verdict : p99Verdict;
            String name = i == 0 ? "p50" : "p99";
            if (!change.resolved()) {
                missing.add(name + " has no interval (" + change.notResolved() + "); more forks per side would give one "
                        + "(-Dbench.forks)");
            } else if (keptDisturbed != null && verdict != ChangeVerdict.IMPROVED) {
                missing.add(name + "'s data include " + keptDisturbed + " (other processes took the CPU through its tries), "
                        + "and the runs prove no change");
            } else if (!(change.ciHighPercent() < options.thresholdPercent())) {
                missing.add(Text.f("%s %+.1f%% [%+.1f, %+.1f] reaches past %s%%", name, change.changePercent(),
                        change.ciLowPercent(), change.ciHighPercent(), Text.plain(options.thresholdPercent())));
            } else {
                passes.add(GateDecision.passText(name, options.thresholdPercent(), change.ciLowPercent(), change.ciHighPercent()));
            }
        }
        return missing.isEmpty() ? new CellGate(GateDecision.NO_REGRESSION, String.join("; ", passes), null)
                : new CellGate(GateDecision.UNDECIDED, String.join("; ", missing), null);
    }

    /**
     * Why the runs doubt a cell's data, or null: a fork of either kept disturbed (other processes took the CPU after
     * its tries), set aside as disturbed and measured again, or departed from its siblings and measured again.
     */
    static String doubted(CellResult baseline, String baselineName, CellResult candidate, String candidateName) {
        List<String> why = new ArrayList<>();
        for (var run : List.of(java.util.Map.entry(baselineName, baseline), java.util.Map.entry(candidateName, candidate))) {
            CellResult cell = run.getValue();
            long kept = cell.forkRuns() == null ? 0 : cell.forkRuns().stream().filter(f -> f.measurement() != null
                    && io.inferbench.measure.CellLoop.disturbed(f.measurement().cpu())).count();
            long setAside = cell.forkRuns() == null ? 0 : cell.forkRuns().stream().filter(f -> f.measurement() != null
                    && f.measurement().setAside() != null && !f.measurement().setAside().isEmpty()).count();
            int departed = cell.departedForks() == null ? 0 : cell.departedForks().size();
            if (kept > 0) {
                why.add(kept + " fork(s) of " + run.getKey() + " kept disturbed");
            }
            if (setAside > 0) {
                why.add(setAside + " fork(s) of " + run.getKey() + " set aside as disturbed and measured again");
            }
            if (departed > 0) {
                why.add(departed + " fork(s) of " + run.getKey() + " departed from their siblings and measured again");
            }
        }
        return why.isEmpty() ? null : String.join("; ", why);
    }

    /** Which forks of either run were kept disturbed (other processes took the CPU after its tries), or null. */
    static String keptDisturbed(CellResult baseline, String baselineName, CellResult candidate, String candidateName) {
        List<String> why = new ArrayList<>();
        for (var run : List.of(java.util.Map.entry(baselineName, baseline), java.util.Map.entry(candidateName, candidate))) {
            long kept = run.getValue().forkRuns() == null ? 0 : run.getValue().forkRuns().stream().filter(f -> f.measurement() != null
                    && io.inferbench.measure.CellLoop.disturbed(f.measurement().cpu())).count();
            if (kept > 0) {
                why.add(kept + " fork(s) of " + run.getKey() + " kept disturbed");
            }
        }
        return why.isEmpty() ? null : String.join(" and ", why);
    }

    /**
     * Series whose regime moved. A move between a borderline verdict and the regime across the threshold that ρ's
     * interval crosses is not one: either run's data allows both.
     */
    static List<String> regimeChanges(Map<SeriesKey, SeriesFit> baseline, Map<SeriesKey, SeriesFit> candidate) {
        List<String> changes = new ArrayList<>();
        for (Map.Entry<SeriesKey, SeriesFit> entry : baseline.entrySet()) {
            SeriesFit b = entry.getValue();
            SeriesFit c = candidate.get(entry.getKey());
            if (c == null || b.regime() == c.regime() || b.consistentWith(c.regime()) || c.consistentWith(b.regime())) {
                continue;
            }
            changes.add(entry.getKey().label() + ": " + b.verdictLabel() + " -> " + c.verdictLabel());
        }
        return changes;
    }

    /** Each side's fork-to-fork spread of log p50 in one series, pooled over the cells both runs measured. */
    record PooledSpreads(PercentileChange.ForkSpread baseline, PercentileChange.ForkSpread candidate) {
    }

    static Map<SeriesKey, PooledSpreads> pooledP50Spreads(Map<String, CellResult> base, Map<String, CellResult> cand) {
        Map<SeriesKey, List<double[]>> baseLogs = new LinkedHashMap<>();
        Map<SeriesKey, List<double[]>> candLogs = new LinkedHashMap<>();
        for (Map.Entry<String, CellResult> entry : base.entrySet()) {
            CellResult c = cand.get(entry.getKey());
            if (c == null) {
                continue;
            }
            SeriesKey series = entry.getValue().series();
            baseLogs.computeIfAbsent(series, k -> new ArrayList<>()).add(PercentileChange.forkLogPercentiles(forks(entry.getValue()), 50));
            candLogs.computeIfAbsent(series, k -> new ArrayList<>()).add(PercentileChange.forkLogPercentiles(forks(c), 50));
        }
        Map<SeriesKey, PooledSpreads> spreads = new LinkedHashMap<>();
        baseLogs.forEach((series, logs) -> spreads.put(series,
                new PooledSpreads(PercentileChange.pool(logs), PercentileChange.pool(candLogs.get(series)))));
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

    private static Map<String, CellResult> measuredById(RunResult run) {
        Map<String, CellResult> cells = new LinkedHashMap<>();
        run.cells().stream().filter(CellResult::measured).forEach(c -> cells.put(c.id(), c));
        return cells;
    }

    /** Each fork's histogram, or the merged one when the run kept no per-fork data (one fork, or schema 1). */
    private static List<Histogram> forks(CellResult cell) {
        List<String> encoded = cell.forkHistogramsNs() != null ? cell.forkHistogramsNs() : List.of(cell.histogramNs());
        return encoded.stream().map(HistogramCodec::decode).toList();
    }

    /** The verdict per series: the run's stored analysis, or one computed now for runs that have none (schema 1). */
    private static Map<SeriesKey, SeriesFit> fits(RunResult run, CompareOptions options) {
        Analysis analysis = run.analysis() != null ? run.analysis() : RunAnalysis.analyze(run, options.thresholdsForOldRuns());
        Map<SeriesKey, SeriesFit> fits = new LinkedHashMap<>();
        analysis.fits().forEach(f -> fits.put(f.series(), f));
        return fits;
    }
}
