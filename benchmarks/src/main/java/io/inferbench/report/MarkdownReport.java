package io.inferbench.report;

import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.SeqScalingFit;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.measure.LatencySummary;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code report.md}: a run as a pull-request comment. Conditions first (a number without them is not
 * comparable), then the verdicts, the per-bucket tables, seq scaling, the plots as relative links, and risks.
 */
public final class MarkdownReport {
    /** Coefficient of variation (stdev / mean) above which a cell is flagged as noisy. */
    public static final double NOISY_CV = 0.20;
    /** p99 / p50 above which a cell's tail is flagged as heavy. */
    public static final double HEAVY_TAIL_RATIO = 2.0;

    private MarkdownReport() {
    }

    public static String render(RunResult run, Analysis analysis, List<Charts.ChartFile> charts, Path reportDir) {
        StringBuilder md = new StringBuilder();
        line(md, "# inferbench run " + run.runId());
        line(md, "");
        conditions(md, run);
        verdicts(md, analysis);
        buckets(md, run);
        seqScaling(md, analysis);
        plots(md, charts, reportDir);
        risks(md, run);
        return md.toString();
    }

    private static void conditions(StringBuilder md, RunResult run) {
        EnvironmentInfo e = run.environment();
        RunConfig c = run.config();
        line(md, "## Conditions");
        line(md, "");
        line(md, "| | |");
        line(md, "|---|---|");
        row(md, "started / finished", run.startedAt() + " / " + (run.finishedAt() == null ? "unfinished" : run.finishedAt()));
        row(md, "CPU", e.cpuModel() + ", " + e.logicalCores() + " logical cores, " + fmt("%.1f GiB", e.memoryBytes() / (double) (1L << 30)));
        row(md, "OS", e.os() + " " + e.osVersion() + " (" + e.arch() + ")");
        row(md, "GPU", e.gpus() == null ? "none (" + e.gpuNote() + ")" : String.join("; ", e.gpus()));
        row(md, "JVM", e.jvmName() + " " + e.jvmVersion() + " (" + e.jvmVendor() + "), JMH " + e.jmhVersion());
        e.engines().forEach((name, build) -> row(md, "engine " + name, build));
        row(md, "libraries", e.libraries().toString());
        for (RunConfig.ModelInfo m : c.models()) {
            row(md, "model " + m.name(), m.description() + "; SHA-256 `" + m.sha256() + "`");
        }
        row(md, "sweep", "backends " + c.backends() + ", devices " + c.devices() + ", seq " + c.seqLens() + ", batch " + c.batches());
        row(md, "passes per fork", c.warmupPasses() + " warm-up (excluded), " + c.measuredPasses() + " measured; "
                + c.forks() + " fork(s) per cell");
        row(md, "threads", c.intraOpThreads() + " intra-op");
        row(md, "seed", Long.toString(c.seed()));
        row(md, "command", "`mvn " + (c.mavenCommand() == null ? "(not run by Maven)" : c.mavenCommand().trim()) + "`");
        line(md, "");
    }

    private static void verdicts(StringBuilder md, Analysis analysis) {
        line(md, "## Batch scaling verdicts");
        line(md, "");
        line(md, fmt("Least squares of p50 against batch; rho = marginal cost / per-sample cost at the smallest batch. "
                        + "Thresholds: memory-bound rho <= %.2f, compute-bound rho >= %.2f, monotonic tolerance %.0f%%, "
                        + "max relative residual %.0f%%, knee when the hinge removes >= %.0f%% of the line's squared error, "
                        + "%.0f%% confidence.", analysis.thresholds().memoryBoundMaxRho(), analysis.thresholds().computeBoundMinRho(),
                100 * analysis.thresholds().monotonicTolerance(), 100 * analysis.thresholds().maxRelativeResidual(),
                100 * analysis.thresholds().kneeMinImprovement(), 100 * analysis.thresholds().confidenceLevel()));
        line(md, "");
        line(md, "| backend | device | model | seq | regime | fixed cost (ms) | marginal cost (ms/sample) [CI] | p99 slope (ms/sample) | knee | R² | advice |");
        line(md, "|---|---|---|---:|---|---:|---:|---:|---:|---:|---|");
        for (SeriesFit f : analysis.fits()) {
            boolean fitted = f.p50Fit() != null;
            line(md, "| " + f.backend() + " | " + f.device() + " | " + VerdictTable.shortName(f.model()) + " | " + f.seqLen()
                    + " | **" + f.regime().label() + "** | " + nullable(f.fixedCostMs()) + " | "
                    + nullable(f.marginalCostMsPerSample()) + " [" + nullable(fitted ? f.p50Fit().slopeCiLowMsPerSample() : null)
                    + ", " + nullable(fitted ? f.p50Fit().slopeCiHighMsPerSample() : null) + "] | "
                    + nullable(fitted ? f.p99Fit().slopeMsPerSample() : null) + " | " + (f.kneeBatch() == null ? "-" : f.kneeBatch())
                    + " | " + nullable(fitted ? f.p50Fit().rSquared() : null) + " | " + f.regime().advice() + " |");
        }
        line(md, "");
        for (SeriesFit f : analysis.fits()) {
            line(md, "- seq " + f.seqLen() + " (" + f.backend() + ", " + f.device() + ", " + VerdictTable.shortName(f.model())
                    + "): " + f.regime().label() + ", " + f.reason() + ". Scaling efficiency T(B0)*B/T(B) by batch: "
                    + join(f.batches(), f.scalingEfficiency()) + ".");
        }
        line(md, "");
    }

    private static void buckets(StringBuilder md, RunResult run) {
        line(md, "## Latency per bucket");
        line(md, "");
        line(md, "Milliseconds per forward pass, HdrHistogram percentiles over the measured passes (warm-up excluded). "
                + "CV = stdev / mean. Cold start is the first fork's.");
        List<CellResult> cells = new ArrayList<>(run.cells());
        cells.sort(Comparator.comparing(CellResult::backend).thenComparing(CellResult::device).thenComparing(CellResult::model)
                .thenComparingInt(CellResult::seqLen).thenComparingInt(CellResult::batch));
        String current = null;
        for (CellResult c : cells) {
            String key = c.backend() + " | " + c.device() + " | " + VerdictTable.shortName(c.model()) + " | seq " + c.seqLen();
            if (!key.equals(current)) {
                current = key;
                line(md, "");
                line(md, "### " + key);
                line(md, "");
                line(md, "| batch | p50 | p90 | p95 | p99 | p99.9 | max | mean ± stdev | CV | samples/s | passes | session create | first pass |");
                line(md, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            }
            if (!c.measured()) {
                line(md, "| " + c.batch() + " | failed: " + c.error().replace("|", "\\|") + " | | | | | | | | | | | |");
                continue;
            }
            LatencySummary l = c.latencyMs();
            line(md, fmt("| %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f ± %.3f | %.2f | %.1f | %d | %.1f ms | %.2f ms |",
                    c.batch(), l.p50Ms(), l.p90Ms(), l.p95Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(), l.meanMs(), l.stdevMs(),
                    l.stdevMs() / l.meanMs(), c.samplesPerSecond(), c.measuredPasses(),
                    c.coldStarts().get(0).sessionCreateMs(), c.coldStarts().get(0).firstInferenceMs()));
        }
        line(md, "");
    }

    private static void seqScaling(StringBuilder md, Analysis analysis) {
        if (analysis.seqScaling().isEmpty()) {
            return;
        }
        line(md, "## Sequence-length scaling");
        line(md, "");
        line(md, "Power law p50 = c * seq^k fitted on log-log axes at each batch; k > 1 shows attention's quadratic term.");
        line(md, "");
        line(md, "| backend | device | model | batch | seq | exponent k [CI] | R² |");
        line(md, "|---|---|---|---:|---|---:|---:|");
        for (SeqScalingFit f : analysis.seqScaling()) {
            line(md, "| " + f.backend() + " | " + f.device() + " | " + VerdictTable.shortName(f.model()) + " | " + f.batch()
                    + " | " + f.seqLens() + " | " + fmt("%.3f", f.exponent()) + " [" + nullable(f.exponentCiLow()) + ", "
                    + nullable(f.exponentCiHigh()) + "] | " + nullable(f.rSquared()) + " |");
        }
        line(md, "");
    }

    private static void plots(StringBuilder md, List<Charts.ChartFile> charts, Path reportDir) {
        line(md, "## Plots");
        line(md, "");
        for (Charts.ChartFile chart : charts) {
            String png = reportDir.relativize(chart.png()).toString().replace('\\', '/');
            String svg = reportDir.relativize(chart.svg()).toString().replace('\\', '/');
            line(md, "![" + chart.title() + "](" + png + ")");
            line(md, "");
            line(md, "([SVG](" + svg + "))");
            line(md, "");
        }
    }

    private static void risks(StringBuilder md, RunResult run) {
        line(md, "## Risks and caveats");
        line(md, "");
        List<String> risks = new ArrayList<>();
        for (CellResult c : run.cells()) {
            if (!c.measured()) {
                risks.add("`" + c.id() + "` failed: " + c.error());
                continue;
            }
            LatencySummary l = c.latencyMs();
            double cv = l.stdevMs() / l.meanMs();
            if (cv > NOISY_CV) {
                risks.add(fmt("`%s` is noisy: CV %.2f (> %.2f).", c.id(), cv, NOISY_CV));
            }
            if (l.p99Ms() / l.p50Ms() > HEAVY_TAIL_RATIO) {
                risks.add(fmt("`%s` has a heavy tail: p99 / p50 = %.1f (> %.1f).", c.id(), l.p99Ms() / l.p50Ms(), HEAVY_TAIL_RATIO));
            }
        }
        long unresolved = run.cells().stream().filter(CellResult::measured).filter(c -> c.measuredPasses() < 1000).count();
        if (unresolved > 0) {
            risks.add(unresolved + " cell(s) have fewer than 1000 measured passes: their p99.9 is their maximum.");
        }
        if (run.config().forks() < 2) {
            risks.add("One fork per cell: JVM-to-JVM variation (JIT, memory layout) is not sampled; use -Dbench.forks=3 for decisions.");
        }
        if (run.environment().logicalCores() <= run.config().intraOpThreads()) {
            risks.add("The engine's threads use every core of the machine, so anything else running on it shows up in the tails.");
        }
        if (risks.isEmpty()) {
            risks.add("None flagged.");
        }
        risks.forEach(r -> line(md, "- " + r));
    }

    private static String join(List<Integer> batches, List<Double> values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < batches.size(); i++) {
            parts.add(batches.get(i) + ": " + fmt("%.2f", values.get(i)));
        }
        return String.join(", ", parts);
    }

    private static String nullable(Double value) {
        return value == null ? "n/a" : fmt("%.3f", value);
    }

    private static void row(StringBuilder md, String name, String value) {
        line(md, "| " + name + " | " + value.replace("|", "\\|") + " |");
    }

    private static void line(StringBuilder md, String text) {
        md.append(text).append('\n');
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
