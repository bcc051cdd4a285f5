package io.inferbench.analysis;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * Batch scaling of one series (same backend, device, model and seqLen, across batch sizes) and its verdict.
 *
 * <ul>
 *   <li>{@code p50Fit}, {@code p99Fit}: least-squares lines of p50 and p99 against batch.</li>
 *   <li>{@code fixedCostMs} = the p50 line's intercept; {@code marginalCostMsPerSample} = its slope.</li>
 *   <li>{@code relativeMarginalCost} ρ = slope / (p50(B₀) / B₀), B₀ the smallest batch, with its
 *       confidence interval from the slope's; ρ ≈ 0 flat, ρ ≈ 1 proportional.</li>
 *   <li>{@code scalingEfficiency[i]} = p50(B₀) · (B/B₀) / p50(B), per the definition T(1)·B/T(B): how many
 *       times more samples per unit of latency than at B₀.</li>
 *   <li>{@code throughputGain[i]} = samplesPerSecond(B) / samplesPerSecond(B₀), from the mean-based
 *       throughput of each cell (so it differs from the p50-based efficiency by the cells' skew).</li>
 *   <li>With a single batch size there is nothing to fit: the fits and costs are null, the verdict inconclusive.</li>
 *   <li>{@code knee}: the hinge fit, present whatever the verdict; {@code kneeBatch} is set when the verdict
 *       uses it (transitional).</li>
 *   <li>{@code borderline}: the verdict rests on ρ and ρ's confidence interval crosses a threshold, so the regime
 *       next to it ({@code borderlineWith}) is as consistent with the data; a comparison does not call a move between
 *       the two a regime change. Absent (null) in runs of schema 2 and older, which did not label it.</li>
 * </ul>
 */
@JsonPropertyOrder({"series", "points", "lines", "marginal", "gains", "knee", "kneeBatch", "verdict"})
public record SeriesFit(@JsonUnwrapped SeriesKey series, @JsonUnwrapped Points points, @JsonUnwrapped Lines lines,
                        @JsonUnwrapped Marginal marginal, @JsonUnwrapped Gains gains, KneeFit knee, Integer kneeBatch,
                        @JsonUnwrapped Verdict verdict) implements SeriesKey.Named {

    /** A group is never null (an absent one reads back as every field null, so it is written as one). */
    public SeriesFit {
        lines = lines == null ? Lines.NONE : lines;
        marginal = marginal == null ? Marginal.NONE : marginal;
    }

    /** The series' batch sizes and the p50 and p99 of each. */
    public record Points(List<Integer> batches, List<Double> p50Ms, List<Double> p99Ms) {
    }

    /** The least-squares lines against batch, and the p50 line's intercept and slope; every field null with one batch. */
    public record Lines(LinearFit p50Fit, LinearFit p99Fit, Double fixedCostMs, Double marginalCostMsPerSample) {
        public static final Lines NONE = new Lines(null, null, null, null);
    }

    /** ρ and its confidence interval; every field null with one batch. */
    public record Marginal(Double relativeMarginalCost, Double relativeMarginalCostCiLow,
                           Double relativeMarginalCostCiHigh) {
        public static final Marginal NONE = new Marginal(null, null, null);
    }

    /** Against the smallest batch: the p50-based scaling efficiency and the mean-based throughput gain. */
    public record Gains(List<Double> scalingEfficiency, List<Double> throughputGain) {
    }

    /** The regime, why, what to do about it, and whether ρ's interval leaves a neighbour as consistent. */
    public record Verdict(Regime regime, String reason, String advice, Boolean borderline, List<Regime> borderlineWith) {
    }

    /** The regime, with ", borderline" when ρ's interval crosses a threshold: what tables print. */
    public String verdictLabel() {
        return Boolean.TRUE.equals(borderline()) ? regime().label() + ", borderline" : regime().label();
    }

    /**
     * Whether {@code other} is a regime this verdict does not rule out: the same one, or one across a threshold that
     * ρ's interval crosses.
     */
    public boolean consistentWith(Regime other) {
        return regime() == other || (borderlineWith() != null && borderlineWith().contains(other));
    }

    // Each group's fields, read through the group, as before the groups.

    public List<Integer> batches() {
        return points.batches();
    }

    public List<Double> p50Ms() {
        return points.p50Ms();
    }

    public List<Double> p99Ms() {
        return points.p99Ms();
    }

    public LinearFit p50Fit() {
        return lines.p50Fit();
    }

    public LinearFit p99Fit() {
        return lines.p99Fit();
    }

    public Double fixedCostMs() {
        return lines.fixedCostMs();
    }

    public Double marginalCostMsPerSample() {
        return lines.marginalCostMsPerSample();
    }

    public Double relativeMarginalCost() {
        return marginal.relativeMarginalCost();
    }

    public Double relativeMarginalCostCiLow() {
        return marginal.relativeMarginalCostCiLow();
    }

    public Double relativeMarginalCostCiHigh() {
        return marginal.relativeMarginalCostCiHigh();
    }

    public List<Double> scalingEfficiency() {
        return gains.scalingEfficiency();
    }

    public List<Double> throughputGain() {
        return gains.throughputGain();
    }

    public Regime regime() {
        return verdict.regime();
    }

    public String reason() {
        return verdict.reason();
    }

    public String advice() {
        return verdict.advice();
    }

    public Boolean borderline() {
        return verdict.borderline();
    }

    public List<Regime> borderlineWith() {
        return verdict.borderlineWith();
    }
}
