package io.inferbench.pipeline;

import io.inferbench.results.RunResult;
import io.inferbench.runner.TimeAccount;

import java.util.List;

/**
 * One step of a run: it takes the run as the stages before it left it and returns it with its own section added. The
 * {@link Pipeline} runs every stage the same way: it asks whether the stage applies, skips it when a stage it
 * {@link #needs} failed, times it, records how it ended in {@code run.json}'s {@code stages}, and writes {@code run.json}
 * after it. A stage prints its own tables; it neither writes {@code run.json} nor renders the report.
 */
public interface Stage {
    /** What {@code run.json}'s {@code stages} and the console call it. */
    String name();

    /** The part of the run's time account ({@code run.json}'s {@code timing}) its wall time goes to. */
    TimeAccount.Phase phase();

    /** The stages that must have succeeded for this one to run, by name. */
    default List<String> needs() {
        return List.of();
    }

    /** Whether this run asked for the stage; {@code run} is null before the first stage. */
    default boolean applies(RunResult run) {
        return true;
    }

    /**
     * Does the stage's work.
     *
     * @param run     the run so far; null for the first stage, which starts it
     * @param context the run's folder (null until the first stage has passed) and the console
     * @return the run with what this stage found
     */
    RunResult run(RunResult run, RunContext context) throws Exception;

    /**
     * A stage that failed after part of its work: the pipeline keeps {@link #kept()}, the run with what the stage
     * finished, and records the stage as failed with this message.
     */
    final class Failed extends Exception {
        private final transient RunResult kept;
        private final boolean inCodeUnderTest;

        /** @param inCodeUnderTest the code it measured ended it, not the harness or the machine: a finding */
        public Failed(String message, RunResult kept, boolean inCodeUnderTest) {
            super(message);
            this.kept = kept;
            this.inCodeUnderTest = inCodeUnderTest;
        }

        public RunResult kept() {
            return kept;
        }

        public boolean inCodeUnderTest() {
            return inCodeUnderTest;
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }
}
