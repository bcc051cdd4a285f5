package io.inferbench.compare;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;

/**
 * The whole of {@code compare.json}. Its fields are grouped by concern (the statistics asked for, what the runs did not
 * share, the verdicts' counts, the serving side by side) and written flat, as they always were ({@link JsonUnwrapped});
 * an accessor per field reads through the groups.
 *
 * @param overridden true when the runs were incomparable and the user compared them anyway ({@code force})
 * @param regressed  true when any cell regressed beyond the threshold with significance: the CI gate
 * @param gate       the gate's decision over every compared cell, failing closed ({@link GateDecision})
 */
@JsonPropertyOrder({"schemaVersion", "baseline", "candidate", "statistics", "ruler", "overridden", "rows", "unshared",
        "counts", "regressed", "servingSide", "gate"})
public record CompareResult(int schemaVersion, RunRef baseline, RunRef candidate, @JsonUnwrapped Statistics statistics,
                            SameRuler.Check ruler, boolean overridden, List<Row> rows, @JsonUnwrapped Unshared unshared,
                            @JsonUnwrapped Counts counts, boolean regressed, @JsonUnwrapped ServingSide servingSide,
                            Gate gate) {

    /**
     * How the rows were judged.
     *
     * @param confidenceLevel         family-wise: all {@code intervals} intervals hold together at least this often
     * @param intervalConfidenceLevel the level of each interval (Bonferroni: {@code 1 - (1 - confidenceLevel) / intervals})
     */
    public record Statistics(double thresholdPercent, double confidenceLevel, int intervals, double intervalConfidenceLevel,
                             int resamples, String method) {
    }

    /** The cells one run has and the other has not, and the series whose regime changed. */
    public record Unshared(List<String> onlyInBaseline, List<String> onlyInCandidate, List<String> regimeChanges) {
    }

    /**
     * The rows' verdicts.
     *
     * @param notResolved cells where neither p50 nor p99 could be resolved, so no verdict was drawn
     */
    public record Counts(int improved, int regressedCells, int unchanged, int notResolved) {
    }

    /** The serving points and SLA boundaries both runs share, side by side, without a verdict. */
    public record ServingSide(List<ServingChange> serving, List<ServingChange.Boundary> slaBoundaries) {
    }

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

    // Each group's fields, read through the group, as before the groups.

    public double thresholdPercent() {
        return statistics.thresholdPercent();
    }

    public double confidenceLevel() {
        return statistics.confidenceLevel();
    }

    public int intervals() {
        return statistics.intervals();
    }

    public double intervalConfidenceLevel() {
        return statistics.intervalConfidenceLevel();
    }

    public int resamples() {
        return statistics.resamples();
    }

    public String method() {
        return statistics.method();
    }

    public List<String> onlyInBaseline() {
        return unshared.onlyInBaseline();
    }

    public List<String> onlyInCandidate() {
        return unshared.onlyInCandidate();
    }

    public List<String> regimeChanges() {
        return unshared.regimeChanges();
    }

    public int improved() {
        return counts.improved();
    }

    public int regressedCells() {
        return counts.regressedCells();
    }

    public int unchanged() {
        return counts.unchanged();
    }

    public int notResolved() {
        return counts.notResolved();
    }

    public List<ServingChange> serving() {
        return servingSide.serving();
    }

    public List<ServingChange.Boundary> slaBoundaries() {
        return servingSide.slaBoundaries();
    }
}
