package io.inferbench.pipeline;

import io.inferbench.results.RunStore;

import java.io.PrintStream;

/**
 * What every stage of a run may use besides the run itself.
 *
 * @param store   the run's folder; null while the first stage (the preflight) runs: it is created once that has passed,
 *                so a run refused as bad input leaves nothing behind
 * @param console where the stage's lines go (the tables, the verdicts)
 */
public record RunContext(RunStore store, PrintStream console) {
}
