package io.inferbench.runner;

import java.util.ArrayList;
import java.util.List;

/**
 * A fork JVM killed from outside while it measured a cell ({@code kill -9}, the kernel's out-of-memory killer, a
 * {@code SIGTERM}; {@link JvmDeath#killedFromOutside}) is started again at once, fresh, for that cell and the cells it
 * did not reach: what killed it was not the cell's doing, as a departed fork's slowness is not. Once per cell and round:
 * killed a second time, the cell fails with why ({@link Settlement}) and {@link CrashRestart} takes the rest.
 */
final class KilledRestart implements ForkRule {
    @Override
    public Decision after(SweepState state, ForkOutcome outcome) {
        if (!applies(state, outcome)) {
            return Decision.NONE;
        }
        Cell killed = outcome.runningCell();
        List<Cell> again = new ArrayList<>();
        again.add(killed);
        again.addAll(outcome.unreached());
        return new Decision(List.of(outcome.job().rest(again, ForkJob.Reason.KILLED_RESTART)), true,
                "[inferbench] the fork JVM measuring " + killed.id() + " (round " + outcome.job().round() + ") "
                        + JvmDeath.describe(outcome.exit()) + "; that fork is measured again in a fresh JVM, with the "
                        + (again.size() - 1) + " cell(s) it did not reach",
                List.of());
    }

    /** This rule, not {@link CrashRestart}, restarts the JVM: killed from outside, for the first time in the cell's round. */
    static boolean applies(SweepState state, ForkOutcome outcome) {
        Cell killed = outcome.runningCell();
        return outcome.opened() && outcome.killedFromOutside() && killed != null
                && state.kills(killed, outcome.job().round()) == 1 && !outcome.job().kind().remeasures();
    }
}
