package io.inferbench.pipeline;

import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.report.VerdictTable;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunResult;
import io.inferbench.runner.TimeAccount;

import java.util.List;

/** The batch-scaling fits and verdicts of every series ({@link RunAnalysis}), printed as a table. */
final class AnalysisStage extends NamedStage {
    static final String NAME = "analysis";

    private final RegimeThresholds thresholds;

    AnalysisStage(RegimeThresholds thresholds) {
        super(NAME, TimeAccount.Phase.REPORT, List.of(SweepStage.NAME));
        this.thresholds = thresholds;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        Analysis analysis = RunAnalysis.analyze(run, thresholds);
        VerdictTable.print(analysis, context.console());
        return run.withAnalysis(analysis);
    }
}
