package io.inferbench.runner;

import java.util.List;

/**
 * A fork JVM that the sweep stopped as slow ({@link SlowJvm}) has the cells it had not begun run next in a fresh JVM,
 * which is not watched again in that round: once is enough, and the forks it measured slow are set right after the
 * rounds if they departed ({@link Departures}).
 */
final class SlowJvmRest implements ForkRule {
    @Override
    public Decision after(SweepState state, ForkOutcome outcome) {
        if (outcome.stoppedAsSlow() == null || outcome.unreached().isEmpty()) {
            return Decision.NONE;
        }
        return new Decision(List.of(outcome.job().rest(outcome.unreached(), ForkJob.Reason.SLOW_JVM_REST)), true, null,
                List.of());
    }
}
