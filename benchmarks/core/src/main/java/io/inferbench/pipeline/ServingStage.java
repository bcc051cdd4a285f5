package io.inferbench.pipeline;

import io.inferbench.engine.SessionDefaults;
import io.inferbench.engine.TextTokenizer;
import io.inferbench.report.ServingTable;
import io.inferbench.results.RunResult;
import io.inferbench.results.ServingResult;
import io.inferbench.runner.TimeAccount;
import io.inferbench.serve.RequestInputs;
import io.inferbench.serve.RequestShape;
import io.inferbench.serve.ServeOptions;
import io.inferbench.serve.ServingRunner;
import io.inferbench.workload.TextWorkloads;
import io.inferbench.workload.Workload;
import io.inferbench.workload.WorkloadOptions;

import java.util.List;

/** Requests served under load, in this JVM, after every cell: the load points and the SLA search ({@link ServingRunner}). */
final class ServingStage extends NamedStage {
    private final ServeOptions options;
    private final SessionDefaults sessions;
    private final String nvidiaSmi;
    private final WorkloadOptions workloadOptions;
    private final Workload workload;

    /** @param workload the workload requests are drawn from, or null: then each request is the serving shape */
    ServingStage(ServeOptions options, SessionDefaults sessions, String nvidiaSmi, WorkloadOptions workloadOptions,
                 Workload workload) {
        super("serving", TimeAccount.Phase.SERVING, List.of(SweepStage.NAME));
        this.options = options;
        this.sessions = sessions;
        this.nvidiaSmi = nvidiaSmi;
        this.workloadOptions = workloadOptions;
        this.workload = workload;
    }

    @Override
    public boolean applies(RunResult run) {
        return options.any();
    }

    @Override
    public RunResult run(RunResult run, RunContext context) throws InterruptedException {
        ServingResult serving;
        try (TextTokenizer tokenizer = workload != null && workload.hasText()
                ? TextWorkloads.openTokenizer(workloadOptions.tokenizer(), sessions.cacheDir(), sessions.nativeCacheDir()) : null) {
            // A workload's requests are padded to the sweep's bucket that holds them.
            RequestShape inputs = workload == null ? new RequestShape.Fixed(options.samplesPerRequest())
                    : new RequestInputs(workload, run.config().plan().seqLens().stream().sorted().toList(),
                    workloadOptions.maxLength(), tokenizer);
            serving = new ServingRunner(sessions, nvidiaSmi, options, context.console(), inputs).run(run);
        }
        ServingTable.printSla(serving, context.console());
        return run.withServing(serving);
    }
}
