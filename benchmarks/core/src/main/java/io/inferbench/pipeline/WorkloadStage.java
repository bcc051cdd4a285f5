package io.inferbench.pipeline;

import io.inferbench.engine.SessionDefaults;
import io.inferbench.results.RunResult;
import io.inferbench.runner.TimeAccount;
import io.inferbench.workload.Workload;
import io.inferbench.workload.WorkloadOptions;
import io.inferbench.workload.WorkloadRunner;

import java.util.List;

/** The real inputs' lengths against the sweep's cells, the bucket advisor, and a measured mixed stream ({@link WorkloadRunner}). */
final class WorkloadStage extends NamedStage {
    private final WorkloadOptions options;
    private final Workload workload;
    private final SessionDefaults sessions;

    /** @param workload the workload, loaded before the run; null when none was given */
    WorkloadStage(WorkloadOptions options, Workload workload, SessionDefaults sessions) {
        super("workload", TimeAccount.Phase.WORKLOAD, List.of(SweepStage.NAME));
        this.options = options;
        this.workload = workload;
        this.sessions = sessions;
    }

    @Override
    public boolean applies(RunResult run) {
        return workload != null;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        return run.withWorkload(WorkloadRunner.run(options, workload, sessions, run, context.console()));
    }
}
