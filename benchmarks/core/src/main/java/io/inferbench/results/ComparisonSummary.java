package io.inferbench.results;

/**
 * The run against its baseline ({@code -Dbench.baseline}), as {@code compare} judged it; the whole comparison is in
 * {@code compare.json} and {@code compare.md} beside {@code run.json}.
 *
 * @param baseline       the baseline's run file, as a real path
 * @param baselineRunId  its run id
 * @param regressed      some cell regressed beyond the threshold with significance: the gate fails (exit code 1)
 * @param overridden     the runs were not measured with the same ruler and were compared anyway ({@code compare.force})
 * @param decision       the gate's decision over the compared cells, failing closed: {@code regression}, {@code failed},
 *                       {@code undecided} (exit code 4) or {@code no regression shown}; null in a run written before it
 *                       was recorded
 * @param undecidedCells the cells that neither showed a regression nor ruled one out
 */
public record ComparisonSummary(String baseline, String baselineRunId, double thresholdPercent, int regressedCells,
                                int improvedCells, int unchangedCells, int notResolved, boolean regressed, boolean overridden,
                                String decision, int undecidedCells) {
}
