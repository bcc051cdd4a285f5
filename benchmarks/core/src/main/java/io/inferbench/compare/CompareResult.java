package io.inferbench.compare;

import java.util.List;

/**
 * The whole of {@code compare.json}.
 *
 * @param confidenceLevel         family-wise: all {@code intervals} intervals hold together at least this often
 * @param intervalConfidenceLevel the level of each interval (Bonferroni: {@code 1 - (1 - confidenceLevel) / intervals})
 * @param overridden true when the runs were incomparable and the user compared them anyway ({@code force})
 * @param notResolved cells where neither p50 nor p99 could be resolved, so no verdict was drawn
 * @param regressed  true when any cell regressed beyond the threshold with significance: the CI gate
 * @param gate       the gate's decision over every compared cell, failing closed ({@link GateDecision})
 */
public record CompareResult(
        int schemaVersion,
        RunRef baseline,
        RunRef candidate,
        double thresholdPercent,
        double confidenceLevel,
        int intervals,
        double intervalConfidenceLevel,
        int resamples,
        String method,
        SameRuler.Check ruler,
        boolean overridden,
        List<Row> rows,
        List<String> onlyInBaseline,
        List<String> onlyInCandidate,
        List<String> regimeChanges,
        int improved,
        int regressedCells,
        int unchanged,
        int notResolved,
        boolean regressed,
        List<ServingChange> serving,
        List<ServingChange.Boundary> slaBoundaries,
        Gate gate) {

    /**
     * 1: first version; 2: percentiles the data cannot resolve carry {@code notResolved} and no interval; 3: serving
     * points and SLA boundaries both runs share, side by side, without a verdict; 4: the gate's decision, per row and
     * over the rows ({@code gate}).
     */
    public static final int SCHEMA_VERSION = 4;

    /**
     * The gate's decision over the compared cells.
     *
     * @param percentiles what a passing cell must rule a regression out at: {@code p50} or {@code p50,p99}
     * @param headline    the decision with the count of cells for each, as compare.md's first line says it
     * @param undecided   how many cells are undecided
     * @param failed      cells the baseline measured that failed in the candidate: a finding
     */
    public record Gate(String percentiles, GateDecision decision, String headline, int undecided, int failed) {
    }

    /** Which run a side is. */
    public record RunRef(String runId, String file, String startedAt) {
    }

    /**
     * One cell both runs measured.
     *
     * @param doubted why either run doubts the cell's data (a fork set aside as disturbed, kept disturbed, or departed
     *                from its siblings and measured again), which keeps a {@code no change} verdict {@code not resolved};
     *                null when neither does
     * @param gate    what the gate concludes about the cell; the regimes are the series' verdict labels
     */
    public record Row(String backend, String device, String model, int seqLen, int batch, ChangeEstimate p50,
                      ChangeEstimate p99, ChangeVerdict p50Verdict, ChangeVerdict p99Verdict, ChangeVerdict verdict,
                      String baselineRegime, String candidateRegime, String doubted, CellGate gate) {
    }
}
