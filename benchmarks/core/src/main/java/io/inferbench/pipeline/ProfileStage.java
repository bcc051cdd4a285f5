package io.inferbench.pipeline;

import io.inferbench.engine.SessionDefaults;
import io.inferbench.report.ProfileTable;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;
import io.inferbench.roofline.ProfileRunner;
import io.inferbench.runner.TimeAccount;

import java.util.List;

/** The measured peaks, each engine's fixed cost per call, every cell on the roofline, each verdict cross-checked ({@link ProfileRunner}). */
final class ProfileStage extends NamedStage {
    private final SessionDefaults sessions;
    private final boolean asked;

    /** @param asked {@code -Dbench.profile} */
    ProfileStage(SessionDefaults sessions, boolean asked) {
        super("profile", TimeAccount.Phase.PROFILE, List.of(AnalysisStage.NAME));
        this.sessions = sessions;
        this.asked = asked;
    }

    @Override
    public boolean applies(RunResult run) {
        return asked;
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        ProfileResult profile = new ProfileRunner(sessions, context.console()).run(run, context.store().runDir());
        ProfileTable.print(profile, context.console());
        return run.withProfile(profile);
    }
}
