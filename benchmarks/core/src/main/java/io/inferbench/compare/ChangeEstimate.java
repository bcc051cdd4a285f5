package io.inferbench.compare;

/**
 * The change of one percentile between a baseline and a candidate, with its confidence interval when the data can
 * bound it. Percent values are {@code 100 * (candidate / baseline - 1)}: positive is slower.
 *
 * <p>When {@code notResolved} is set, the interval is absent (null) and the reason says what the data lacks, for
 * example "needs ≥ 100 passes per fork": the point estimate is still given, but no verdict is drawn from it.
 *
 * @param betweenRunNoiseSampled true when both sides had two or more forks, so the interval includes
 *                               JVM-to-JVM variation; false when it covers only the passes of single JVMs
 * @param degreesOfFreedom       Welch–Satterthwaite degrees of freedom of the interval; null for a bootstrap
 * @param notResolved            why no interval is given, or null when it is
 */
public record ChangeEstimate(double baselineMs, double candidateMs, double changePercent, Double ciLowPercent,
                             Double ciHighPercent, boolean betweenRunNoiseSampled, Double degreesOfFreedom,
                             String notResolved) {

    public boolean resolved() {
        return notResolved == null;
    }

    /**
     * Regressed: the whole interval is above 0 and the estimate is beyond the threshold; improved: mirrored; not
     * resolved when there is no interval.
     */
    public ChangeVerdict verdict(double thresholdPercent) {
        if (!resolved()) {
            return ChangeVerdict.NOT_RESOLVED;
        }
        if (ciLowPercent > 0 && changePercent > thresholdPercent) {
            return ChangeVerdict.REGRESSED;
        }
        if (ciHighPercent < 0 && changePercent < -thresholdPercent) {
            return ChangeVerdict.IMPROVED;
        }
        return ChangeVerdict.NO_CHANGE;
    }
}
