package io.inferbench.analysis;

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
public record SeriesFit(
        String backend,
        String device,
        String model,
        int seqLen,
        List<Integer> batches,
        List<Double> p50Ms,
        List<Double> p99Ms,
        LinearFit p50Fit,
        LinearFit p99Fit,
        Double fixedCostMs,
        Double marginalCostMsPerSample,
        Double relativeMarginalCost,
        Double relativeMarginalCostCiLow,
        Double relativeMarginalCostCiHigh,
        List<Double> scalingEfficiency,
        List<Double> throughputGain,
        KneeFit knee,
        Integer kneeBatch,
        Regime regime,
        String reason,
        String advice,
        Boolean borderline,
        List<Regime> borderlineWith) {

    public SeriesKey series() {
        return new SeriesKey(backend, device, model, seqLen);
    }

    /** The regime, with ", borderline" when ρ's interval crosses a threshold: what tables print. */
    public String verdictLabel() {
        return Boolean.TRUE.equals(borderline) ? regime.label() + ", borderline" : regime.label();
    }

    /**
     * Whether {@code other} is a regime this verdict does not rule out: the same one, or one across a threshold that
     * ρ's interval crosses.
     */
    public boolean consistentWith(Regime other) {
        return regime == other || (borderlineWith != null && borderlineWith.contains(other));
    }
}
