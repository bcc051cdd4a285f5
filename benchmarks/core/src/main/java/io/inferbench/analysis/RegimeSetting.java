package io.inferbench.analysis;

import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;

import java.util.Properties;

/**
 * The regime rules' thresholds ({@link RegimeThresholds}). Owned here, beside what reads them ({@link #read}).
 */
public enum RegimeSetting implements Option.Defined {
    REGIME_MEMORY_BOUND_MAX_RHO("bench.regime.memoryBoundMaxRho", "0.15", "ρ at or below this is memory-bound"),
    REGIME_COMPUTE_BOUND_MIN_RHO("bench.regime.computeBoundMinRho", "0.70", "ρ at or above this is compute-bound"),
    REGIME_MONOTONIC_TOLERANCE("bench.regime.monotonicTolerance", "0.10", "a p50 more than this fraction below a smaller "
            + "batch's makes the series inconclusive"),
    REGIME_MAX_RELATIVE_RESIDUAL("bench.regime.maxRelativeResidual", "0.15", "residual standard error of the best fit, as a "
            + "fraction of the mean p50, above which the series is too noisy"),
    REGIME_KNEE_MIN_IMPROVEMENT("bench.regime.kneeMinImprovement", "0.5", "share of the line's squared error a "
            + "flat-then-rising fit must remove to count as a knee"),
    REGIME_CONFIDENCE_LEVEL("bench.regime.confidenceLevel", "0.95", "confidence level of the slope's and ρ's intervals");

    private final Option.Definition definition;

    RegimeSetting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }

    /**
     * Regime thresholds: each {@code bench.regime.*} the user set, else the value in {@code base} (say, the thresholds a
     * stored run was analysed with), else the default.
     */
    public static RegimeThresholds read(Properties p, RegimeThresholds base) {
        return new RegimeThresholds(
                threshold(REGIME_MEMORY_BOUND_MAX_RHO, p, base == null ? null : base.memoryBoundMaxRho()),
                threshold(REGIME_COMPUTE_BOUND_MIN_RHO, p, base == null ? null : base.computeBoundMinRho()),
                threshold(REGIME_MONOTONIC_TOLERANCE, p, base == null ? null : base.monotonicTolerance()),
                threshold(REGIME_MAX_RELATIVE_RESIDUAL, p, base == null ? null : base.maxRelativeResidual()),
                threshold(REGIME_KNEE_MIN_IMPROVEMENT, p, base == null ? null : base.kneeMinImprovement()),
                threshold(REGIME_CONFIDENCE_LEVEL, p, base == null ? null : base.confidenceLevel()));
    }

    /** The documented default thresholds, with nothing set. */
    public static RegimeThresholds defaults() {
        return read(new Properties(), null);
    }

    private static double threshold(RegimeSetting setting, Properties p, Double base) {
        if (setting.userValue(p).isEmpty() && base != null) {
            return base;
        }
        return PropertyValues.parseDouble(setting, p);
    }
}
