package io.inferbench.pipeline;

import io.inferbench.results.RunConfig;
import io.inferbench.shard.ShardPlan;
import io.inferbench.sweep.Cell;
import io.inferbench.sweep.ForkExecutor;
import io.inferbench.sweep.SweepOptions;
import io.inferbench.sweep.SweepRunner;
import io.inferbench.sweep.TimeAccount;

import java.io.PrintStream;
import java.util.List;

/**
 * A benchmark run as a pipeline of stages ({@link Pipeline}): the preflight, the sweep, the analysis and the resources,
 * then what was asked for after them (profile, agreement, workload, serving), and the comparison with a baseline. A new
 * stage is one class implementing {@link Stage} and one line in {@link #stages}.
 */
public final class BenchmarkRun {
    private BenchmarkRun() {
    }

    /**
     * Runs every stage the options ask for.
     *
     * @param executor how each fork JVM is run
     * @param terminal the console is a terminal, so the progress line can be rewritten in place
     * @throws Exception what the preflight refused: nothing was measured
     */
    public static Pipeline.Outcome run(RunOptions options, ForkExecutor executor, PrintStream console, boolean terminal)
            throws Exception {
        TimeAccount time = new TimeAccount();
        return new Pipeline(options.sweep().output().resultsDir(), console, time).run(stages(options, executor, console,
                terminal, time));
    }

    /** The run's stages, in the order they run. */
    static List<Stage> stages(RunOptions options, ForkExecutor executor, PrintStream console, boolean terminal,
                              TimeAccount time) {
        SweepOptions sweep = options.sweep();
        List<Cell> wholePlan = Cell.plan(sweep);
        RunConfig.ShardInfo shard = options.shard() == null ? null : ShardPlan.info(wholePlan, options.shard(), sweep);
        List<Cell> plan = shard == null ? wholePlan : wholePlan.stream().filter(c -> shard.cells().contains(c.id())).toList();
        PreflightStage preflight = new PreflightStage(sweep, plan,
                sweep.toConfig(shard, options.mavenCommand(), options.jvmCommand()), options.baseline());
        return List.of(
                preflight,
                new SweepStage(new SweepRunner(sweep, executor, console, terminal, time), plan, preflight),
                new AnalysisStage(sweep.rules().regimeThresholds()),
                new ResourcesStage(options.memoryBudgetMb()),
                new ProfileStage(sweep.sessionDefaults(), options.profile()),
                new AgreementStage(sweep.sessionDefaults(), sweep.plan().reference(), options.agreement()),
                new WorkloadStage(options.workloadOptions(), options.workload(), sweep.sessionDefaults()),
                new ServingStage(options.serve(), sweep.sessionDefaults(), sweep.engines().nvidiaSmi(),
                        options.workloadOptions(), options.workload()),
                new ComparisonStage(options.baseline()));
    }
}
