package io.inferbench.pipeline;

import io.inferbench.report.ResourcesTable;
import io.inferbench.resources.Resources;
import io.inferbench.results.ResourcesResult;
import io.inferbench.results.RunResult;
import io.inferbench.runner.TimeAccount;

import java.util.List;

/** Each cell's memory, CPU and energy from its forks, and the largest batch that fits the budget ({@link Resources}). */
final class ResourcesStage extends NamedStage {
    private final Double memoryBudgetMb;

    /** @param memoryBudgetMb {@code -Dbench.memoryBudgetMb}, or null when none was given */
    ResourcesStage(Double memoryBudgetMb) {
        super("resources", TimeAccount.Phase.REPORT, List.of(SweepStage.NAME));
        this.memoryBudgetMb = memoryBudgetMb;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        ResourcesResult resources = Resources.of(run, memoryBudgetMb, memoryBudgetMb == null
                ? "none given (-Dbench.memoryBudgetMb)" : "-Dbench.memoryBudgetMb");
        ResourcesTable.print(resources, run, context.console());
        return run.withResources(resources);
    }
}
