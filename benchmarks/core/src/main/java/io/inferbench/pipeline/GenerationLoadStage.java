package io.inferbench.pipeline;

import io.inferbench.engine.SessionDefaults;
import io.inferbench.generate.GenerationKind;
import io.inferbench.report.GenerationLoadTable;
import io.inferbench.results.GenerationServing;
import io.inferbench.results.RunResult;
import io.inferbench.results.ServingResult;
import io.inferbench.runner.TimeAccount;
import io.inferbench.serve.generation.GenerationLoadOptions;
import io.inferbench.serve.generation.GenerationLoadRunner;

import java.util.List;

/**
 * Generation requests under open-loop load, in this JVM, after the generation cells, whose curves give its forecast
 * ({@link GenerationLoadRunner}); run.json's {@code serving.generation}.
 */
final class GenerationLoadStage extends NamedStage {
    private final GenerationLoadOptions options;
    private final GenerationKind kind;
    private final SessionDefaults sessions;

    GenerationLoadStage(GenerationLoadOptions options, GenerationKind kind, SessionDefaults sessions) {
        super("generation under load", TimeAccount.Phase.SERVING, List.of(GenerationStage.NAME));
        this.options = options;
        this.kind = kind;
        this.sessions = sessions;
    }

    @Override
    public boolean applies(RunResult run) {
        return options != null && kind != null;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) throws InterruptedException {
        GenerationServing served = new GenerationLoadRunner(sessions, kind.kvPairs(), options,
                GenerationKind.PROMPT_ID_BOUND, context.console()).run(run);
        GenerationLoadTable.print(served, context.console());
        return run.withServing(ServingResult.ofGeneration(served));
    }
}
