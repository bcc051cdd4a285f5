package io.inferbench.sweep;

import io.inferbench.model.ResolvedModel;
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
 * Runs a sweep: preflight, then each cell in its own fork(s), persisting {@code run.json} after every cell.
 *
 * <p>Durability: the run file is rewritten atomically after each cell, so a crash or a kill mid-sweep leaves
 * a valid {@code run.json} holding every cell finished so far. A cell that fails is recorded as failed and
 * the sweep goes on to the next cell.
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

        log.printf(Locale.ROOT, "[inferbench] sweep of %d cells = %d backend(s) x %d device(s) x %d model(s) x %d seq x %d batch;"
                        + " %d warm-up + %d measured passes per fork, %d fork(s) per cell, %d intra-op thread(s)%n",
                plan.size(), options.backends().size(), options.devices().size(), options.models().size(),
                options.seqLens().size(), options.batches().size(), options.warmupPasses(), options.measuredPasses(),
                options.forks(), options.intraOpThreads());
        log.println("[inferbench] writing " + store.runFile());

        List<CellResult> results = new ArrayList<>();
        EtaEstimator eta = new EtaEstimator();
        for (int i = 0; i < plan.size(); i++) {
            Cell cell = plan.get(i);
            RunConfig.ModelInfo model = modelInfo(preflight.models().get(cell.model()));
            log.printf(Locale.ROOT, "[inferbench] cell %d of %d: %s%n", i + 1, plan.size(), cell.id());
            long startNs = System.nanoTime();
            CellResult result;
            try {
                executor.execute(cell, store.forkDir(i), store.runDir());
                result = CellAggregator.aggregate(cell, model, options.forks(), store.forkDir(i));
            } catch (Exception e) {
                result = CellAggregator.failed(cell, model, "the cell's run failed: " + e);
            }
            double seconds = (System.nanoTime() - startNs) / 1e9;
            results.add(result);
            run = run.withCells(results, null);
            store.writeRun(run);
            eta.record(cell, seconds);
            double left = eta.secondsLeft(plan.subList(i + 1, plan.size()));
            log.printf(Locale.ROOT, "[inferbench] cell %d of %d %s in %.1f s; about %s left%n", i + 1, plan.size(),
                    result.measured() ? String.format(Locale.ROOT, "done (p50 %.3f ms, p99 %.3f ms)",
                            result.latencyMs().p50Ms(), result.latencyMs().p99Ms()) : "FAILED: " + result.error(),
                    seconds, formatDuration(left));
        }
        run = run.withCells(results, Instant.now().toString());
        store.writeRun(run);
        SummaryTable.print(run, log);
        return new Outcome(run, store);
    }

    private RunConfig config(Map<String, ResolvedModel> models, String mavenCommand, String jvmCommand) {
        return new RunConfig(options.backends(), options.devices(),
                models.values().stream().map(SweepRunner::modelInfo).toList(),
                options.seqLens(), options.bucketsFile(), options.batches(), options.warmupPasses(),
                options.measuredPasses(), options.forks(), options.intraOpThreads(), options.seed(),
                options.allowCpuFallback(), options.forkJvmArgs(), mavenCommand, jvmCommand);
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
