package io.inferbench.pipeline;

import io.inferbench.engine.SessionDefaults;
import io.inferbench.precision.AgreementOptions;
import io.inferbench.precision.AgreementRunner;
import io.inferbench.report.AgreementTable;
import io.inferbench.results.AgreementResult;
import io.inferbench.results.RunResult;
import io.inferbench.runner.TimeAccount;

import java.util.List;

/** Every model's outputs and speed against the reference model's, on the same inputs ({@link AgreementRunner}). */
final class AgreementStage extends NamedStage {
    private final SessionDefaults sessions;
    private final String reference;
    private final AgreementOptions options;

    /** @param reference {@code -Dbench.reference}, or null when none was given */
    AgreementStage(SessionDefaults sessions, String reference, AgreementOptions options) {
        super("agreement", TimeAccount.Phase.AGREEMENT, List.of(SweepStage.NAME));
        this.sessions = sessions;
        this.reference = reference;
        this.options = options;
    }

    @Override
    public boolean applies(RunResult run) {
        return reference != null;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        AgreementResult agreement = new AgreementRunner(sessions, reference, options, context.console()).run(run);
        AgreementTable.print(agreement, context.console());
        return run.withAgreement(agreement);
    }
}
