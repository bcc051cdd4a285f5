package io.inferbench.sweep;

import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.environment.EnvironmentProbe;
import io.inferbench.model.ResolvedModel;
import io.inferbench.report.ReportWriter;
import io.inferbench.report.SummaryTable;
import io.inferbench.report.VerdictTable;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
 *
 * <p><b>Console.</b> The plan, where the log is, one progress line per fork run ({@link Progress}), then the tables,
 * the verdicts and the paths. JMH's and the forks' own output go to {@code console.log} in the run folder.
 */
public final class SweepRunner {
    private final SweepOptions options;
    private final CellExecutor executor;
    private final PrintStream console;
    private final boolean terminal;

    public SweepRunner(SweepOptions options, CellExecutor executor, PrintStream console) {
        this(options, executor, console, false);
    }

    /** @param terminal the console is a terminal, so the progress line can be rewritten in place */
    public SweepRunner(SweepOptions options, CellExecutor executor, PrintStream console, boolean terminal) {
        this.options = options;
        this.executor = executor;
        this.console = console;
        this.terminal = terminal;
    }

    /** The finished run and where it was written. */
    public record Outcome(RunResult run, RunStore store) {
        public long failedCells() {
            return run.cells().stream().filter(c -> !c.measured()).count();
        }
    }

    public Outcome run(String mavenCommand, String jvmCommand) {
        List<Cell> plan = Cell.plan(options);
        console.println(Text.f("[inferbench] sweep of %d cells x %d fork(s) = %d fork runs: backends %s, devices %s, models %s, "
                        + "seq %s, batch %s; %d warm-up + %d measured passes per fork, %d intra-op thread(s)",
                plan.size(), options.forks(), plan.size() * options.forks(), options.backends(), options.devices(),
                options.models(), options.seqLens(), options.batches(), options.warmupPasses(), options.measuredPasses(),
                options.intraOpThreads()));
        Preflight.Result preflight = Preflight.check(options, console);
        ZonedDateTime started = ZonedDateTime.now();
        RunStore store = RunStore.create(options.resultsDir(), RunStore.newRunId(started));
        RunConfig config = config(preflight.models(), mavenCommand, jvmCommand);
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, store.runDir().getFileName().toString(),
                started.toInstant().toString(), null, EnvironmentProbe.collect(preflight.engines()), config, List.of());
        store.writeRun(run);

        int rounds = options.forks();
        int total = plan.size() * rounds;
        Progress progress = new Progress(console, terminal, store.consoleLog(), total);
        for (String pair : config.skippedPairs()) {
            progress.say("[inferbench] not planned: " + pair);
        }
        String link = store.linkAsLatest();
        progress.say("[inferbench] writing " + store.runFile() + (link == null ? "" : " (" + link + ")"));
        progress.say("[inferbench] JMH's and the forked JVMs' own output: " + store.consoleLog()
                + (options.verbose() ? " (and echoed here, -Dbench.verbose=true)" : " (-Dbench.verbose=true to see it here)"));

        EtaEstimator eta = new EtaEstimator(options.warmupPasses() + options.measuredPasses() + 1);
        preflight.probes().forEach(p -> eta.probe(p.target(), p.tokens(), p.passMs()));
        List<CellResult> results = new ArrayList<>();
        plan.forEach(c -> results.add(null));
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
                    progress.runFinished(step, cell.id() + " fork " + round + ": skipped, the cell already failed", false,
                            eta.secondsLeft(remaining));
                    continue; // a cell that failed is not retried: its error stays as it was
                }
                RunConfig.ModelInfo model = modelInfo(preflight.models().get(cell.model()));
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
                run = run.withCells(results.stream().filter(Objects::nonNull).toList(), null);
                store.writeRun(run);
                eta.record(cell, seconds, result.measured() ? result.latencyMs().meanMs() : null);
                String what = result.measured()
                        ? Text.f("%s fork %d: p50 %.3f ms, p99 %.3f ms so far (%.1f s)", cell.id(), round,
                                result.latencyMs().p50Ms(), result.latencyMs().p99Ms(), seconds)
                        : cell.id() + " fork " + round + " FAILED: " + result.error();
                progress.runFinished(step, what, !result.measured(), eta.secondsLeft(remaining));
            }
        }
        progress.endStatus();
        run = run.withCells(results, Instant.now().toString());
        store.writeRun(run);
        console.println();
        console.println("[inferbench] sweep finished in " + Progress.duration(progress.elapsedSeconds()));
        SummaryTable.print(run, console);
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
            VerdictTable.print(analysis, console);
            ReportWriter.Written written = ReportWriter.write(analyzed, analysis, store.runDir());
            console.println();
            console.println("[inferbench] report: " + written.report() + " (" + written.charts().size() + " charts in "
                    + written.report().resolveSibling(ReportWriter.PLOTS_DIR) + ")");
            return analyzed;
        } catch (RuntimeException e) {
            console.println("[inferbench] WARNING: the analysis or report failed (" + e + "); run.json holds every cell. "
                    + "Retry with: mvn -q -pl benchmarks compile exec:java@analyze -Drun=" + store.runFile());
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
}
