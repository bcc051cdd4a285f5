package io.inferbench.pipeline;

import io.inferbench.cli.Settings;
import io.inferbench.results.RunConfig;
import io.inferbench.shard.Shard;
import io.inferbench.shard.ShardPlan;
import io.inferbench.sweep.Cell;
import io.inferbench.sweep.ForkExecutor;
import io.inferbench.sweep.SweepOptions;
import io.inferbench.sweep.SweepRunner;
import io.inferbench.sweep.TimeAccount;

import java.io.PrintStream;
import java.util.List;
import java.util.Properties;

/**
 * A run's first three stages for tests (the preflight, the sweep, the analysis), through the real {@link Pipeline}, with
 * the fork JVMs run by the executor a test gives: what a test of a later stage starts from.
 */
public final class TestRuns {
    private TestRuns() {
    }

    public static Pipeline.Outcome sweep(SweepOptions options, ForkExecutor executor, PrintStream console) throws Exception {
        return sweep(options, null, executor, console);
    }

    /** As above, with the options and the shard ({@code bench.shard}) read from {@code p}. */
    public static Pipeline.Outcome sweep(Properties p, ForkExecutor executor, PrintStream console) throws Exception {
        return sweep(Settings.sweep(p), Settings.shard(p), executor, console);
    }

    private static Pipeline.Outcome sweep(SweepOptions options, Shard shard, ForkExecutor executor, PrintStream console)
            throws Exception {
        TimeAccount time = new TimeAccount();
        List<Cell> wholePlan = Cell.plan(options);
        RunConfig.ShardInfo info = shard == null ? null : ShardPlan.info(wholePlan, shard, options);
        List<Cell> plan = info == null ? wholePlan : wholePlan.stream().filter(c -> info.cells().contains(c.id())).toList();
        PreflightStage preflight = new PreflightStage(options, plan, options.toConfig(info, null, "test"), null);
        return new Pipeline(options.output().resultsDir(), console, time).run(List.of(preflight,
                new SweepStage(new SweepRunner(options, executor, console, false, time), plan, preflight),
                new AnalysisStage(options.rules().regimeThresholds())));
    }
}
