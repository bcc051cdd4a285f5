package io.inferbench.runner;

import java.util.List;

/**
 * A fork JVM that opened its session and ended before it reached some of its cells (it crashed inside one, or exited
 * having skipped them) is started again at once, fresh, for the cells it did not reach. The cell it was measuring when
 * it crashed has failed in that round ({@link Settlement}). A JVM that opened its session and began none of its cells is
 * not started again: another would only do the same, and its cells fail. A JVM stopped as slow is {@link SlowJvmRest}'s,
 * one killed from outside the first time {@link KilledRestart}'s. This is also how the cells after one that timed out
 * ({@link CallWatchdog}) or ran out of memory ({@link ForkRun#UNUSABLE}) are measured: the fork ended that cell and
 * stopped, and a fresh JVM takes the rest.
 */
final class CrashRestart implements ForkRule {
    @Override
    public Decision after(SweepState state, ForkOutcome outcome) {
        if (!outcome.opened() || outcome.unreached().isEmpty() || outcome.ranNoneOfItsCells()
                || outcome.stoppedAsSlow() != null || KilledRestart.applies(state, outcome)) {
            return Decision.NONE;
        }
        return new Decision(List.of(outcome.job().rest(outcome.unreached(), ForkJob.Reason.CRASH_RESTART)), true, null,
                List.of());
    }
}
