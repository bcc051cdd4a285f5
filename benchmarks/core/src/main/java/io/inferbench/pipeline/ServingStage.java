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

import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;

/**
 * Requests served under load after every cell: the load points and the SLA search ({@link ServingRunner}), in this JVM
 * for an engine's model, and in a JVM of their own for a target, whose calls this JVM does not trust
 * ({@link ServingFork}).
 */
final class ServingStage extends NamedStage {
    private final ServeOptions options;
    private final SessionDefaults sessions;
    private final String nvidiaSmi;
    private final WorkloadOptions workloadOptions;
    private final Workload workload;
    private final ServingFork apart;

    /**
     * @param workload the workload requests are drawn from, or null: then each request is the serving shape
     * @param apart    the JVM that serves a target, or null to serve in this one
     */
    ServingStage(ServeOptions options, SessionDefaults sessions, String nvidiaSmi, WorkloadOptions workloadOptions,
                 Workload workload, ServingFork apart) {
        super("serving", TimeAccount.Phase.SERVING, List.of(SweepStage.NAME));
        this.options = options;
        this.sessions = sessions;
        this.nvidiaSmi = nvidiaSmi;
        this.workloadOptions = workloadOptions;
        this.workload = workload;
        this.apart = apart;
    }

    @Override
    public boolean applies(RunResult run) {
        return options.any();
    }

    @Override
    public RunResult run(RunResult run, RunContext context) throws InterruptedException, Stage.Failed {
        RunResult served = apart != null ? apart.serve(run, context.console())
                : run.withServing(serve(options, sessions, nvidiaSmi, workloadOptions, workload, run, context.console(), null));
        ServingTable.printSla(served.serving(), context.console());
        return served;
    }

    /**
     * Serves {@code run}'s models as the options ask, in this JVM.
     *
     * @param soFar given what has been served after each point, or null
     */
    static ServingResult serve(ServeOptions options, SessionDefaults sessions, String nvidiaSmi,
                               WorkloadOptions workloadOptions, Workload workload, RunResult run, PrintStream console,
                               Consumer<ServingResult> soFar) throws InterruptedException {
        try (TextTokenizer tokenizer = workload != null && workload.hasText()
                ? TextWorkloads.openTokenizer(workloadOptions.tokenizer(), sessions.cacheDir(), sessions.nativeCacheDir()) : null) {
            // A workload's requests are padded to the sweep's bucket that holds them.
            RequestShape inputs = workload == null ? new RequestShape.Fixed(options.samplesPerRequest())
                    : new RequestInputs(workload, run.config().plan().seqLens().stream().sorted().toList(),
                    workloadOptions.maxLength(), tokenizer);
            ServingRunner runner = new ServingRunner(sessions, nvidiaSmi, options, console, inputs);
            return (soFar == null ? runner : runner.eachServed(soFar)).run(run);
        }
    }
}
