package io.inferbench.pipeline;

import io.inferbench.generate.GenerationSection;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.ServingResult;
import io.inferbench.runner.Cell;
import io.inferbench.runner.CellKind;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TimeAccount;
import io.inferbench.serve.ServeOptions;
import io.inferbench.shard.ShardPlan;
import io.inferbench.sweep.CellTexts;
import io.inferbench.sweep.ForwardKind;
import io.inferbench.workload.Workload;
import io.inferbench.workload.WorkloadOptions;

import java.io.PrintStream;
import java.util.List;

/**
 * A benchmark run as a pipeline of stages ({@link Pipeline}): the preflight, the measurement of the plan's cells by the
 * one fork runner (the sweep of forward passes, or generation), the analysis and the resources, then what was asked for
 * after them (profile, agreement, workload, serving), and the comparison with a baseline. The stages after the sweep need
 * it, so in a generation run they do not apply. A new stage is one class implementing {@link Stage} and one line in
 * {@link #stages}.
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
        CellKind kind = options.generation() != null ? options.generation()
                : new ForwardKind(CellTexts.of(options.workload(), options.sweep().plan().seqLens(),
                options.sweep().plan().batches().stream().mapToInt(Integer::intValue).max().orElse(1),
                options.sweep().rules().seed()));
        SweepOptions sweep = options.sweep().forKind(kind);
        List<Cell> wholePlan = Cell.plan(sweep, kind);
        RunConfig.ShardInfo shard = options.shard() == null ? null : ShardPlan.info(wholePlan, options.shard(), sweep);
        List<Cell> plan = shard == null ? wholePlan : wholePlan.stream().filter(c -> shard.cells().contains(c.id())).toList();
        PreflightStage preflight = new PreflightStage(sweep, kind, plan,
                sweep.toConfig(kind, shard, options.mavenCommand(), options.jvmCommand()), options.baseline(), executor);
        ForkRunner runner = new ForkRunner(sweep, kind, executor, console, terminal, time);
        Stage measure = options.generation() == null ? new SweepStage(runner, plan, preflight)
                : new GenerationStage(runner, plan, preflight, new GenerationSection(options.generation(), sweep,
                options.memoryBudgetMb(), console));
        return List.of(
                preflight,
                measure,
                new AnalysisStage(sweep.rules().regimeThresholds()),
                new ResourcesStage(options.memoryBudgetMb()),
                new ProfileStage(sweep.sessionDefaults(), options.profile()),
                new AgreementStage(sweep.sessionDefaults(), sweep.plan().reference(), options.agreement()),
                new WorkloadStage(options.workloadOptions(), options.workload(), sweep.sessionDefaults()),
                new ServingStage(options.serve(), sweep.sessionDefaults(), sweep.engines().nvidiaSmi(),
                        options.workloadOptions(), options.workload(),
                        options.servingJvm() == null ? null : new ServingFork(options.servingJvm())),
                new GenerationLoadStage(options.generationLoad(), options.generation(), sweep.sessionDefaults()),
                new ComparisonStage(options.baseline()));
    }

    /**
     * The serving JVM's work ({@link ServingFork}): serves {@code run} as {@code serve} asks, in this JVM, handing what
     * has been served to {@code soFar} after each point.
     *
     * @param workload the workload, loaded already; null for none
     */
    public static ServingResult serve(SweepOptions sweep, ServeOptions serve, WorkloadOptions workloadOptions,
                                      Workload workload, RunResult run, PrintStream console,
                                      java.util.function.Consumer<ServingResult> soFar) throws InterruptedException {
        return ServingStage.serve(serve, sweep.sessionDefaults(), sweep.engines().nvidiaSmi(), workloadOptions, workload,
                run, console, soFar);
    }
}
