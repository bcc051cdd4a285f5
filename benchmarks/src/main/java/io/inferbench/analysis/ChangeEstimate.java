package io.inferbench.analysis;

/**
 * The change of one percentile between a baseline and a candidate, with its bootstrap confidence interval.
 * Percent values are {@code 100 * (candidate / baseline - 1)}: positive is slower.
 *
 * @param betweenRunNoiseSampled true when both sides had two or more forks, so the interval includes
 *                               JVM-to-JVM variation; false when it covers only the passes of single JVMs
 */
public record ChangeEstimate(double baselineMs, double candidateMs, double changePercent, double ciLowPercent,
                             double ciHighPercent, boolean betweenRunNoiseSampled) {

    /** Regressed: the whole interval is above 0 and the estimate is beyond the threshold; improved: mirrored. */
    public ChangeVerdict verdict(double thresholdPercent) {
        if (ciLowPercent > 0 && changePercent > thresholdPercent) {
            return ChangeVerdict.REGRESSED;
        }
        if (ciHighPercent < 0 && changePercent < -thresholdPercent) {
            return ChangeVerdict.IMPROVED;
        }
        return ChangeVerdict.NO_CHANGE;
    }
}
