package io.inferbench.runner;

import java.util.List;

/**
 * A fork JVM that opened its session and ended before it reached some of its cells (it crashed inside one, or exited
 * having skipped them) is started again at once, fresh, for the cells it did not reach. The cell it was measuring when
 * it crashed has failed in that round ({@link Settlement}). A JVM that opened its session and began none of its cells is
 * not started again: another would only do the same, and its cells fail. A JVM stopped as slow is {@link SlowJvmRest}'s.
 */
final class CrashRestart implements ForkRule {
    @Override
    public Decision after(SweepState state, ForkOutcome outcome) {
        if (!outcome.opened() || outcome.unreached().isEmpty() || outcome.ranNoneOfItsCells()
                || outcome.stoppedAsSlow() != null) {
            return Decision.NONE;
        }
        return new Decision(List.of(outcome.job().rest(outcome.unreached(), ForkJob.Reason.CRASH_RESTART)), true, null,
                List.of());
    }
}
