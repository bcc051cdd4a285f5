package io.inferbench.pipeline;

import io.inferbench.report.StagesReport;
import io.inferbench.report.StopTable;
import io.inferbench.report.SummaryTable;
import io.inferbench.results.RunResult;
import io.inferbench.runner.Cell;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.TimeAccount;

import java.time.Instant;
import java.util.List;

/** Every cell of the plan in fresh fork JVMs ({@link ForkRunner}), then the latency table and how each cell stopped. */
final class SweepStage extends NamedStage {
    static final String NAME = "sweep";

    private final ForkRunner sweep;
    private final List<Cell> plan;
    private final PreflightStage preflight;

    SweepStage(ForkRunner sweep, List<Cell> plan, PreflightStage preflight) {
        super(NAME, TimeAccount.Phase.SWEEP, List.of(PreflightStage.NAME));
        this.sweep = sweep;
        this.plan = List.copyOf(plan);
        this.preflight = preflight;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        RunResult swept = sweep.run(run, plan, context.store(), preflight.result(),
                (started, cells, finished) -> started.withCells(cells, finished ? Instant.now().toString() : null));
        SummaryTable.print(swept, context.console());
        StagesReport.print(swept, context.console());
        StopTable.print(swept, context.console());
        return swept;
    }
}
