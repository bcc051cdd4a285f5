package io.inferbench.runner;

import java.util.List;

/**
 * A rule that can ask for more work once a fork JVM has ended: a pure function of the sweep's state (which already
 * holds what the JVM measured) and the JVM's outcome, to the jobs to add. The sweep asks every rule after every JVM, in
 * the order of {@link ForkRunner}'s list, each seeing the jobs the rules before it queued.
 */
interface ForkRule {
    Decision after(SweepState state, ForkOutcome outcome);

    /**
     * What a rule decided.
     *
     * @param jobs    the jobs to add
     * @param next    they run next, before anything queued (the rest of a JVM's cells); otherwise after it
     * @param console one line for the console and the log saying why, or null
     * @param log     lines for the run's log only: the detail the console has no room for
     */
    record Decision(List<ForkJob> jobs, boolean next, String console, List<String> log) {
        static final Decision NONE = new Decision(List.of(), false, null, List.of());

        public Decision {
            jobs = List.copyOf(jobs);
            log = List.copyOf(log);
        }

        /** The fork runs these jobs add to the sweep: one per cell and job. */
        int cellRuns() {
            return jobs.stream().mapToInt(j -> j.cells().size()).sum();
        }
    }
}
