package io.inferbench.pipeline;

import io.inferbench.compare.BaselineCheck;
import io.inferbench.compare.CompareResult;
import io.inferbench.compare.Comparison;
import io.inferbench.results.ComparisonSummary;
import io.inferbench.results.RunResult;
import io.inferbench.runner.TimeAccount;

import java.util.List;

/**
 * The run against its baseline ({@link Comparison}): {@code compare.md}, {@code compare.json} and the overlay plot beside
 * {@code run.json}, and the verdict in {@code run.json}'s {@code comparison}. The same-ruler rules that need none of the
 * run's numbers were checked before it measured anything ({@link BaselineCheck}); the rest are checked here.
 */
final class ComparisonStage extends NamedStage {
    private final BaselineCheck baseline;

    /** @param baseline the baseline, or null when none was given */
    ComparisonStage(BaselineCheck baseline) {
        super("comparison", TimeAccount.Phase.REPORT, List.of(SweepStage.NAME));
        this.baseline = baseline;
    }

    @Override
    public boolean applies(RunResult run) {
        return baseline != null;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        context.console().println("[inferbench] comparing with the baseline " + baseline.file());
        CompareResult c = Comparison.run(baseline.run(), baseline.file(), run, context.store().runFile(),
                context.store().runDir(), baseline.options(), context.console());
        return run.withComparison(new ComparisonSummary(baseline.file().toString(), c.baseline().runId(),
                c.thresholdPercent(), c.regressedCells(), c.improved(), c.unchanged(), c.notResolved(), c.regressed(),
                c.overridden(), c.gate().decision().label(), c.gate().undecided()));
    }
}
