package io.inferbench.pipeline;

import io.inferbench.Text;
import io.inferbench.compare.BaselineCheck;
import io.inferbench.environment.EnvironmentProbe;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.runner.Cell;
import io.inferbench.runner.CellKind;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.Preflight;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TimeAccount;

import java.time.ZonedDateTime;
import java.util.List;

/**
 * Everything that can be wrong with a run, checked in seconds before the first measurement ({@link Preflight}: the
 * results folder, every model, input and shape, every device, with real units of the run's cell kind at the smallest
 * and largest shape), then
 * the run's conditions (the machine, the engines, the exact configuration), and, with a baseline, every same-ruler check
 * that needs none of this run's numbers ({@link BaselineCheck}). A failure here is bad input: nothing was measured.
 */
final class PreflightStage extends NamedStage {
    static final String NAME = "preflight";

    private final SweepOptions options;
    private final CellKind kind;
    private final List<Cell> plan;
    private final RunConfig config;
    private final BaselineCheck baseline;
    private final ForkExecutor forks;
    private Preflight.Result result;

    /**
     * @param kind     what each cell measures
     * @param plan     the cells this run measures (a shard's part, or the whole plan)
     * @param config   the run's configuration, as recorded; its models are filled in here
     * @param baseline the baseline to check against, or null for none
     * @param forks    how a fork JVM is run: a user's own code is checked in one ({@link Preflight#check})
     */
    PreflightStage(SweepOptions options, CellKind kind, List<Cell> plan, RunConfig config, BaselineCheck baseline,
                   ForkExecutor forks) {
        super(NAME, TimeAccount.Phase.PREFLIGHT, List.of());
        this.options = options;
        this.kind = kind;
        this.plan = List.copyOf(plan);
        this.config = config;
        this.baseline = baseline;
        this.forks = forks;
    }

    /** What the checks found, for the sweep: the models and each shape's probe. Set once this stage has run. */
    Preflight.Result result() {
        if (result == null) {
            throw new IllegalStateException("the preflight has not run");
        }
        return result;
    }

    @Override
    public RunResult run(RunResult none, RunContext context) {
        if (config.plan().shard() != null) {
            context.console().println(Text.f("[inferbench] shard %d/%d: %d of the plan's %d cells (plan %s), balanced by "
                    + "predicted cost; its verdicts cover its own cells only: merge the shards (exec:java@merge) for the "
                    + "plan's", config.plan().shard().index(), config.plan().shard().count(), plan.size(), config.plan().shard().planCells().size(),
                    config.plan().shard().planHash().substring(0, 12)));
        }
        context.console().println(ForkRunner.planLine(options, kind, plan));
        io.inferbench.probe.Probe.all(); // two probes of one name are refused here, before any fork
        result = Preflight.check(options, kind, context.console(), forks);
        ZonedDateTime started = ZonedDateTime.now();
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, RunStore.newRunId(started), started.toInstant().toString(),
                null, EnvironmentProbe.collect(result.engines()), config.withModels(List.copyOf(result.modelInfos().values()))
                .withPlannedCells(plan.stream().map(Cell::id).toList()), List.of());
        if (baseline != null) {
            baseline.beforeMeasuring(run, plan.stream().map(Cell::id).toList()).forEach(context.console()::println);
        }
        return run;
    }
}
