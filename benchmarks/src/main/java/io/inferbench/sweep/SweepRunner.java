package io.inferbench.sweep;

import io.inferbench.analysis.Analysis;
import io.inferbench.model.ResolvedModel;
import io.inferbench.report.ReportWriter;
import io.inferbench.report.RunAnalysis;
import io.inferbench.report.VerdictTable;
import io.inferbench.report.CellResult;
import io.inferbench.report.EnvironmentProbe;
import io.inferbench.report.RunConfig;
import io.inferbench.report.RunResult;
import io.inferbench.report.RunStore;
import io.inferbench.report.SummaryTable;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs a sweep: preflight, then every cell in fresh forked JVMs, persisting {@code run.json} after every fork.
 *
 * <p><b>Forks are interleaved.</b> With {@code forks = F}, the sweep makes F rounds over all cells, one fork per
 * cell per round, so a cell's forks are spread over the whole run instead of running back to back. Their
 * spread then includes the machine's drift over minutes (other load, thermal and frequency state), which is
 * what separates two runs of the same code; a comparison's confidence interval is built from it.
 *
 * <p><b>Durability.</b> The run file is rewritten atomically after each fork, so a crash or a kill mid-sweep
 * leaves a valid {@code run.json} holding every fork finished so far. A cell that fails is recorded as failed,
 * is not retried in later rounds, and the sweep goes on.
 */
public final class SweepRunner {
    private final SweepOptions options;
    private final CellExecutor executor;
    private final PrintStream log;

    public SweepRunner(SweepOptions options, CellExecutor executor, PrintStream log) {
        this.options = options;
        this.executor = executor;
        this.log = log;
    }

    /** The finished run and where it was written. */
    public record Outcome(RunResult run, RunStore store) {
        public long failedCells() {
            return run.cells().stream().filter(c -> !c.measured()).count();
        }
    }

    public Outcome run(String mavenCommand, String jvmCommand) {
        Preflight.Result preflight = Preflight.check(options, log);
        List<Cell> plan = Cell.plan(options);
        ZonedDateTime started = ZonedDateTime.now();
        RunStore store = RunStore.create(options.resultsDir(), RunStore.newRunId(started));
        RunConfig config = config(preflight.models(), mavenCommand, jvmCommand);
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, store.runDir().getFileName().toString(),
                started.toInstant().toString(), null, EnvironmentProbe.collect(preflight.engines()), config, List.of());
        store.writeRun(run);

        log.printf(Locale.ROOT, "[inferbench] sweep of %d cells over backends %s, devices %s, models %s, seq %s, batch %s;"
                        + " %d warm-up + %d measured passes per fork, %d fork(s) per cell, %d intra-op thread(s)%n",
                plan.size(), options.backends(), options.devices(), options.models(),
                options.seqLens(), options.batches(), options.warmupPasses(), options.measuredPasses(),
                options.forks(), options.intraOpThreads());
        for (String pair : config.skippedPairs()) {
            log.println("[inferbench] not planned: " + pair);
        }
        log.println("[inferbench] writing " + store.runFile());

        List<CellResult> results = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            results.add(null);
        }
        EtaEstimator eta = new EtaEstimator();
        int rounds = options.forks();
        int total = plan.size() * rounds;
        List<Cell> remaining = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            remaining.addAll(plan);
        }
        int step = 0;
        for (int round = 1; round <= rounds; round++) {
            for (int i = 0; i < plan.size(); i++) {
                Cell cell = plan.get(i);
                remaining.remove(0);
                step++;
                if (round > 1 && results.get(i) != null && !results.get(i).measured()) {
                    continue; // a cell that failed is not retried: its error stays as it was
                }
                RunConfig.ModelInfo model = modelInfo(preflight.models().get(cell.model()));
                log.printf(Locale.ROOT, "[inferbench] run %d of %d: %s (fork %d of %d)%n", step, total, cell.id(), round, rounds);
                long startNs = System.nanoTime();
                CellResult result;
                try {
                    executor.execute(cell, store.forkDir(i), store.runDir());
                    result = CellAggregator.aggregate(cell, model, round, store.forkDir(i));
                } catch (Exception e) {
                    result = CellAggregator.failed(cell, model, "the cell's run failed: " + e);
                }
                double seconds = (System.nanoTime() - startNs) / 1e9;
                results.set(i, result);
                run = run.withCells(results.stream().filter(java.util.Objects::nonNull).toList(), null);
                store.writeRun(run);
                eta.record(cell, seconds);
                log.printf(Locale.ROOT, "[inferbench] run %d of %d %s in %.1f s; about %s left%n", step, total,
                        result.measured() ? String.format(Locale.ROOT, "done (%s so far: p50 %.3f ms, p99 %.3f ms)",
                                cell.id(), result.latencyMs().p50Ms(), result.latencyMs().p99Ms()) : "FAILED: " + result.error(),
                        seconds, formatDuration(eta.secondsLeft(remaining)));
            }
        }
        run = run.withCells(results, Instant.now().toString());
        store.writeRun(run);
        SummaryTable.print(run, log);
        return new Outcome(analyzeAndReport(run, store), store);
    }

    /**
     * Adds the batch-scaling analysis to the run file, prints the verdicts, and writes plots and report.md.
     * Every cell is already on disk; a failure here is reported and leaves {@code run.json} as it was.
     */
    private RunResult analyzeAndReport(RunResult run, RunStore store) {
        try {
            Analysis analysis = RunAnalysis.analyze(run, options.regimeThresholds());
            RunResult analyzed = run.withAnalysis(analysis);
            store.writeRun(analyzed);
            VerdictTable.print(analysis, log);
            ReportWriter.Written written = ReportWriter.write(analyzed, analysis, store.runDir());
            log.println();
            log.println("[inferbench] report: " + written.report() + " (" + written.charts().size() + " charts in "
                    + written.report().resolveSibling(ReportWriter.PLOTS_DIR) + ")");
            return analyzed;
        } catch (RuntimeException e) {
            log.println("[inferbench] WARNING: the analysis or report failed (" + e + "); run.json holds every cell. "
                    + "Retry with: mvn -q -pl benchmarks exec:java@analyze -Drun=" + store.runFile());
            return run;
        }
    }

    private RunConfig config(Map<String, ResolvedModel> models, String mavenCommand, String jvmCommand) {
        return new RunConfig(options.backends(), options.devices(),
                models.values().stream().map(SweepRunner::modelInfo).toList(),
                options.seqLens(), options.bucketsFile(), options.batches(), options.warmupPasses(),
                options.measuredPasses(), options.forks(), options.intraOpThreads(), options.interOpThreads(), options.seed(),
                options.allowCpuFallback(), options.forkJvmArgs(), Cell.skipped(options), mavenCommand, jvmCommand);
    }

    private static RunConfig.ModelInfo modelInfo(ResolvedModel model) {
        return new RunConfig.ModelInfo(model.name(), model.sha256(), model.sizeBytes(), model.description());
    }

    static String formatDuration(double seconds) {
        if (Double.isNaN(seconds)) {
            return "unknown";
        }
        long s = Math.round(seconds);
        return s >= 60 ? String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60) : s + " s";
    }
}
