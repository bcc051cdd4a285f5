package io.inferbench.generate;

import io.inferbench.inputs.KvPair;

import java.util.List;

/**
 * What {@code -Dbench.generate} asks for.
 *
 * @param newTokens      tokens per sequence: one prefill and {@code newTokens - 1} decode steps
 * @param kvPairs        {@code -Dbench.kvPairs}: cache inputs paired with their outputs by hand
 * @param memoryBudgetMb {@code -Dbench.memoryBudgetMb}, or null
 */
public record GenerationOptions(int newTokens, List<KvPair> kvPairs, Double memoryBudgetMb) {
    /** The fewest measured generations per cell and round, whatever the stop rule says: a step's p99 needs steps from several. */
    public static final int MIN_GENERATIONS = 10;
    /** The longest measurement of a cell in a round, at least: a generation is tens of passes. */
    public static final long MIN_MEASURE_CAP_MS = 10_000;

    public GenerationOptions {
        kvPairs = List.copyOf(kvPairs);
        if (newTokens < 1) {
            throw new IllegalArgumentException("a generation makes at least one token");
        }
    }
}
