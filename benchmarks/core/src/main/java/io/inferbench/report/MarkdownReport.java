package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.SeqScalingFit;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.CellResult;
import io.inferbench.results.EnvironmentInfo;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.StageResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The sections of {@code report.md} that are the run's own rather than a stage's: its conditions (a number without them
 * is not comparable), the verdicts, the per-bucket tables, seq scaling, the plots as relative links, and risks. The
 * report's order is {@link ReportWriter#SECTIONS}'.
 */
public final class MarkdownReport {
    /** Coefficient of variation (stdev / mean) above which a cell is flagged as noisy. */
    public static final double NOISY_CV = 0.20;
    /** p99 / p50 above which a cell's tail is flagged as heavy. */
    public static final double HEAVY_TAIL_RATIO = 2.0;

    private MarkdownReport() {
    }

    /** Each input, then the axes: what the cells' values were and which property bound each axis. */
    static String inputs(RunConfig.ModelInputs in) {
        StringBuilder text = new StringBuilder();
        for (RunConfig.InputInfo i : in.inputs()) {
            text.append('`').append(i.name()).append("` ").append(i.type()).append(' ').append(i.shape()).append(": ")
                    .append(i.values()).append("; ");
        }
        text.append("batch axis ").append(in.batchAxis() == null ? "fixed" : "`" + in.batchAxis() + "`")
                .append(", swept axis ").append(in.seqAxis() == null ? "none" : "`" + in.seqAxis() + "`");
        if (!in.dims().isEmpty()) {
            text.append(", bound ").append(in.dims());
        }
        if (in.specFile() != null) {
            text.append("; input spec ").append(in.specFile()).append(" (SHA-256 `").append(in.specSha256()).append("`)");
        }
        return text.toString();
    }

    /** The run's conditions: a number without them is not comparable. */
    static void conditions(Markdown md, RunResult run) {
        boolean generation = run.generation() != null;
        EnvironmentInfo e = run.environment();
        RunConfig c = run.config();
        md.line("## Conditions");
        md.blank();
        md.line("| | |");
        md.line("|---|---|");
        md.row("started / finished", run.startedAt() + " / " + (run.finishedAt() == null ? "unfinished" : run.finishedAt()));
        md.row("CPU", e.cpuModel() + ", " + e.logicalCores() + " logical cores, " + Text.f("%.1f GiB", e.memoryBytes() / (double) (1L << 30)));
        md.row("OS", e.os() + " " + e.osVersion() + " (" + e.arch() + ")");
        md.row("GPU", e.gpus() == null ? "none (" + e.gpuNote() + ")" : String.join("; ", e.gpus()));
        md.row("JVM", e.jvmName() + " " + e.jvmVersion() + " (" + e.jvmVendor() + "), JMH " + e.jmhVersion());
        e.engines().forEach((name, build) -> md.row("engine " + name, build));
        md.row("libraries", e.libraries().toString());
        if (c.engines().targets() != null) {
            for (RunConfig.TargetCode t : c.engines().targets()) {
                md.row("target " + t.className(), "code SHA-256 `" + t.sha256() + "` from " + String.join(", ", t.classpath()
                        .stream().map(entry -> entry.path() + " (`" + entry.sha256().substring(0, 12) + "`)").toList())
                        + (t.properties().isEmpty() ? "" : "; settings " + t.properties()) + "; its device is its own to "
                        + "use and synchronize");
            }
        }
        for (RunConfig.ModelInfo m : c.plan().models()) {
            md.row("model " + m.name(), m.description() + "; SHA-256 `" + m.sha256() + "`");
            if (m.inputs() != null) {
                md.row("inputs of " + Text.shortModelName(m.name()), inputs(m.inputs()));
            }
        }
        if (generation) {
            md.row("generation", "backends " + c.plan().backends() + ", devices " + c.plan().devices() + ", prompts "
                    + c.plan().seqLens() + ", batch " + c.plan().batches() + ", " + run.generation().newTokens()
                    + " new tokens per sequence, greedy");
        } else {
            md.row("sweep", "backends " + c.plan().backends() + ", devices " + c.plan().devices() + ", seq "
                    + (c.plan().seqLens().equals(java.util.List.of(0)) ? "none (batch only)" : c.plan().seqLens()) + ", batch "
                    + c.plan().batches());
        }
        md.row((generation ? "generations" : "passes") + " per cell and fork", c.rules().measurePolicy() != null
                ? StopTable.describe(c.rules().measurePolicy())
                : c.rules().warmupPasses() + " warm-up (excluded), " + c.rules().measuredPasses() + " measured");
        md.row("forks", c.rules().forks() + " per cell, " + (c.forkJvms().isolation() == null ? "one JVM per cell"
                : "isolation " + c.forkJvms().isolation() + (c.forkJvms().isolation().equals("model")
                ? ": one fresh JVM per engine, device and model per round, its cells in a seeded order"
                : ": one fresh JVM per cell per round")));
        md.row("threads", c.engines().intraOpThreads() + " intra-op");
        md.row("seed", Long.toString(c.rules().seed()));
        md.row("command", "`mvn " + (c.provenance().mavenCommand() == null ? "(not run by Maven)" : c.provenance().mavenCommand().trim()) + "`");
        if (c.provenance().hostLabel() != null) {
            md.row("machine label", c.provenance().hostLabel());
        }
        if (c.plan().shard() != null) {
            md.row("shard", Text.f("%d/%d of plan `%s`: %d of its %d cells; its verdicts cover these cells only (merge the "
                    + "shards for the plan's)", c.plan().shard().index(), c.plan().shard().count(), c.plan().shard().planHash().substring(0, 12),
                    c.plan().shard().cells().size(), c.plan().shard().planCells().size()));
        }
        if (c.plan().shards() != null) {
            var any = c.plan().shards().get(0);
            md.row("merged from", Text.f("%d of %d shard(s) of plan `%s` (%s); %d of its %d cells", c.plan().shards().size(), any.count(),
                    any.planHash().substring(0, 12), String.join(", ", c.plan().shards().stream().map(s -> s.index() + "/" + s.count()
                            + " run " + s.runId()).toList()), run.cells().size(), any.planCells().size()));
        }
        md.blank();
    }

    static void verdicts(Markdown md, Analysis analysis) {
        md.line("## Batch scaling verdicts");
        md.blank();
        if (analysis == null) {
            md.line("None: this run holds no batch-scaling analysis (its analysis did not finish; run.json's `stages` says "
                    + "why). `mvn -q -pl benchmarks -am compile exec:java@analyze -Drun=<run.json>` computes it from the cells.");
            md.blank();
            return;
        }
        md.line(Text.f("Least squares of p50 against batch; rho = marginal cost / per-sample cost at the smallest batch. "
                        + "Thresholds: memory-bound rho <= %.2f, compute-bound rho >= %.2f, monotonic tolerance %.0f%%, "
                        + "max relative residual %.0f%%, knee when the hinge removes >= %.0f%% of the line's squared error, "
                        + "%.0f%% confidence.", analysis.thresholds().memoryBoundMaxRho(), analysis.thresholds().computeBoundMinRho(),
                100 * analysis.thresholds().monotonicTolerance(), 100 * analysis.thresholds().maxRelativeResidual(),
                100 * analysis.thresholds().kneeMinImprovement(), 100 * analysis.thresholds().confidenceLevel()));
        md.blank();
        md.line("| backend | device | model | seq | regime | fixed cost (ms) | marginal cost (ms/sample) [CI] | p99 slope (ms/sample) | knee | R² | advice |");
        md.line("|---|---|---|---:|---|---:|---:|---:|---:|---:|---|");
        for (SeriesFit f : analysis.fits()) {
            boolean fitted = f.p50Fit() != null;
            md.line("| " + f.backend() + " | " + f.device() + " | " + Text.shortModelName(f.model()) + " | " + Text.seqValue(f.seqLen())
                    + " | **" + f.verdictLabel() + "** | " + Text.number(f.fixedCostMs()) + " | "
                    + Text.number(f.marginalCostMsPerSample()) + " [" + Text.number(fitted ? f.p50Fit().slopeCiLowMsPerSample() : null)
                    + ", " + Text.number(fitted ? f.p50Fit().slopeCiHighMsPerSample() : null) + "] | "
                    + Text.number(fitted ? f.p99Fit().slopeMsPerSample() : null) + " | " + (f.kneeBatch() == null ? "-" : f.kneeBatch())
                    + " | " + Text.number(fitted ? f.p50Fit().rSquared() : null) + " | " + f.regime().advice() + " |");
        }
        md.blank();
        for (SeriesFit f : analysis.fits()) {
            md.line("- " + Text.seq(f.seqLen()) + " (" + f.backend() + ", " + f.device() + ", " + Text.shortModelName(f.model())
                    + "): " + f.verdictLabel() + ", " + f.reason() + ". Scaling efficiency T(B0)*B/T(B) by batch: "
                    + join(f.batches(), f.scalingEfficiency()) + ".");
        }
        md.blank();
    }

    static void buckets(Markdown md, RunResult run) {
        md.line("## Latency per bucket");
        md.blank();
        md.line("Milliseconds per forward pass, HdrHistogram percentiles over the measured passes of every fork (warm-up "
                + "excluded). CV = stdev / mean. Passes: measured, all forks. ± p50: the widest distribution-free 95% interval "
                + "of a fork's p50, in percent. Stops: how the forks' measurements ended. First pass: the cell's first pass at its "
                + "shape, median over the forks (the JVM's cold first inference where the cell ran first).");
        List<CellResult> cells = new ArrayList<>(run.cells());
        cells.sort(Comparator.comparing(CellResult::backend).thenComparing(CellResult::device).thenComparing(CellResult::model)
                .thenComparingInt(CellResult::seqLen).thenComparingInt(CellResult::batch));
        SeriesKey current = null;
        for (CellResult c : cells) {
            if (!c.series().equals(current)) {
                current = c.series();
                md.blank();
                md.line("### " + c.backend() + " | " + c.device() + " | " + Text.shortModelName(c.model()) + " | " + Text.seq(c.seqLen()));
                md.blank();
                md.line("| batch | p50 | p90 | p95 | p99 | p99.9 | max | mean ± stdev | CV | samples/s | passes | ± p50 | stops | first pass |");
                md.line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|");
            }
            if (!c.measured()) {
                md.row(Integer.toString(c.batch()), "failed: " + c.error(), "", "", "", "", "", "", "", "", "", "", "", "");
                continue;
            }
            LatencySummary l = c.latencyMs();
            md.line(Text.f("| %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f ± %.3f | %.2f | %.1f | %d | %s | %s | %s |",
                    c.batch(), l.p50Ms(), l.p90Ms(), l.p95Ms(), l.p99Ms(), l.p999Ms(), l.maxMs(), l.meanMs(), l.stdevMs(),
                    l.stdevMs() / l.meanMs(), c.samplesPerSecond(), c.measuredPasses(), RunCostReport.widestInterval(c),
                    RunCostReport.stops(c), RunCostReport.firstPass(c)));
        }
        md.blank();
    }

    static void seqScaling(Markdown md, Analysis analysis) {
        if (analysis == null || analysis.seqScaling().isEmpty()) {
            return;
        }
        md.line("## Sequence-length scaling");
        md.blank();
        md.line("Power law p50 = c * seq^k fitted on log-log axes at each batch; k > 1 shows attention's quadratic term.");
        md.blank();
        md.line("| backend | device | model | batch | seq | exponent k [CI] | R² |");
        md.line("|---|---|---|---:|---|---:|---:|");
        for (SeqScalingFit f : analysis.seqScaling()) {
            md.line("| " + f.backend() + " | " + f.device() + " | " + Text.shortModelName(f.model()) + " | " + f.batch()
                    + " | " + f.seqLens() + " | " + Text.f("%.3f", f.exponent()) + " [" + Text.number(f.exponentCiLow()) + ", "
                    + Text.number(f.exponentCiHigh()) + "] | " + Text.number(f.rSquared()) + " |");
        }
        md.blank();
    }

    static void plots(Markdown md, List<Charts.ChartFile> charts, Path reportDir) {
        md.line("## Plots");
        md.blank();
        for (Charts.ChartFile chart : charts) {
            String png = reportDir.relativize(chart.png()).toString().replace('\\', '/');
            String svg = reportDir.relativize(chart.svg()).toString().replace('\\', '/');
            md.line("![" + chart.title() + "](" + png + ")");
            md.blank();
            md.line("([SVG](" + svg + "))");
            md.blank();
        }
    }

    static void risks(Markdown md, RunResult run) {
        md.line("## Risks and caveats");
        md.blank();
        List<String> risks = new ArrayList<>();
        if (run.stages() != null) {
            run.stages().stream().filter(StageResult::failed).forEach(stage -> risks.add("The stage `" + stage.name() + "` "
                    + (StageResult.NOT_RUN.equals(stage.status()) ? "did not run: it " : "failed: ") + stage.error()
                    + "; its section is missing, every other section is whole."));
        }
        for (CellResult c : run.cells()) {
            if (!c.measured()) {
                risks.add("`" + c.id() + "` failed: " + c.error());
                continue;
            }
            LatencySummary l = c.latencyMs();
            double cv = l.stdevMs() / l.meanMs();
            if (cv > NOISY_CV) {
                risks.add(Text.f("`%s` is noisy: CV %.2f (> %.2f).", c.id(), cv, NOISY_CV));
            }
            if (l.p99Ms() / l.p50Ms() > HEAVY_TAIL_RATIO) {
                risks.add(Text.f("`%s` has a heavy tail: p99 / p50 = %.1f (> %.1f).", c.id(), l.p99Ms() / l.p50Ms(), HEAVY_TAIL_RATIO));
            }
        }
        long unresolved = run.cells().stream().filter(CellResult::measured).filter(c -> c.measuredPasses() < 1000).count();
        if (unresolved > 0) {
            risks.add(unresolved + " cell(s) have fewer than 1000 measured passes: their p99.9 is their maximum.");
        }
        long noP99 = run.cells().stream().filter(CellResult::measured).filter(c -> c.measuredPasses() < 100).count();
        if (noP99 > 0) {
            risks.add(noP99 + " cell(s) have fewer than 100 measured passes: their p99 is their maximum "
                    + "(-Dbench.resolve=p99 makes every fork run 100).");
        }
        risks.addAll(RunCostReport.capRisks(run));
        if (run.config().rules().forks() < 2) {
            risks.add("One fork per cell: JVM-to-JVM variation (JIT, memory layout) is not sampled; use -Dbench.forks=3 for decisions.");
        }
        if (run.environment().logicalCores() <= run.config().engines().intraOpThreads()) {
            risks.add("The engine's threads use every core of the machine, so anything else running on it shows up in the tails.");
        }
        if (risks.isEmpty()) {
            risks.add("None flagged.");
        }
        risks.forEach(r -> md.line("- " + r));
    }

    private static String join(List<Integer> batches, List<Double> values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < batches.size(); i++) {
            parts.add(batches.get(i) + ": " + Text.f("%.2f", values.get(i)));
        }
        return String.join(", ", parts);
    }
}
