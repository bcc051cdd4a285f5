package io.inferbench.pipeline;

import io.inferbench.cli.Settings;
import io.inferbench.generate.GenerationKind;
import io.inferbench.results.RunConfig;
import io.inferbench.runner.Cell;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TimeAccount;
import io.inferbench.shard.Shard;
import io.inferbench.shard.ShardPlan;
import io.inferbench.sweep.ForwardKind;

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

    /**
     * A whole run of generation cells ({@code -Dbench.generate}) through the one pipeline ({@link BenchmarkRun}), its
     * options read from {@code p} as the command reads them, the fork JVMs run by {@code executor}.
     */
    public static Pipeline.Outcome generation(Properties p, GenerationKind kind, ForkExecutor executor, PrintStream console)
            throws Exception {
        SweepOptions options = Settings.sweep(p);
        RunOptions run = new RunOptions(options, kind, null, Settings.serve(p, options), Settings.workload(p), null,
                Settings.agreement(p), Settings.memoryBudgetMb(p), false, null, null, "test");
        return BenchmarkRun.run(run, executor, console, false);
    }

    private static Pipeline.Outcome sweep(SweepOptions options, Shard shard, ForkExecutor executor, PrintStream console)
            throws Exception {
        TimeAccount time = new TimeAccount();
        List<Cell> wholePlan = Cell.plan(options, new ForwardKind());
        RunConfig.ShardInfo info = shard == null ? null : ShardPlan.info(wholePlan, shard, options);
        List<Cell> plan = info == null ? wholePlan : wholePlan.stream().filter(c -> info.cells().contains(c.id())).toList();
        ForwardKind kind = new ForwardKind();
        PreflightStage preflight = new PreflightStage(options, kind, plan, options.toConfig(kind, info, null, "test"), null, executor);
        return new Pipeline(options.output().resultsDir(), console, time).run(List.of(preflight,
                new SweepStage(new ForkRunner(options, kind, executor, console, false, time), plan, preflight),
                new AnalysisStage(options.rules().regimeThresholds())));
    }
}
