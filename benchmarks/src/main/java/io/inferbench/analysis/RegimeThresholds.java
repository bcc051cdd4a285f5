package io.inferbench.analysis;

import io.inferbench.BenchmarkException;

import java.util.Properties;

/**
 * The numbers behind the regime rule ({@link BatchScalingAnalyzer}), configurable with
 * {@code -Dbench.regime.<name>=value} and written into {@code run.json} next to the verdicts they produced.
 *
 * <p>The central quantity is the <em>relative marginal cost</em> ρ = slope / (T(B₀) / B₀): what one more sample
 * costs, divided by what a sample costs at the smallest batch B₀. ρ ≈ 0: latency flat in batch (memory- or
 * overhead-bound). ρ ≈ 1: latency proportional to batch (compute-bound).
 *
 * @param memoryBoundMaxRho   ρ at or below this is memory-bound (default 0.15)
 * @param computeBoundMinRho  ρ at or above this is compute-bound (default 0.70)
 * @param monotonicTolerance  a p50 that falls more than this fraction below an earlier batch's makes the
 *                            series non-monotonic, hence inconclusive (default 0.10)
 * @param maxRelativeResidual residual standard error of the best fit over mean latency above which the series
 *                            is too noisy to classify (default 0.15)
 * @param kneeMinImprovement  fraction of the straight line's squared error that a flat-then-rising fit must
 *                            remove to be called a knee (default 0.5)
 * @param confidenceLevel     for the slope's confidence interval (default 0.95)
 */
public record RegimeThresholds(double memoryBoundMaxRho, double computeBoundMinRho, double monotonicTolerance,
                               double maxRelativeResidual, double kneeMinImprovement, double confidenceLevel) {

    public static final RegimeThresholds DEFAULTS = new RegimeThresholds(0.15, 0.70, 0.10, 0.15, 0.5, 0.95);

    public RegimeThresholds {
        if (!(memoryBoundMaxRho >= 0 && memoryBoundMaxRho < computeBoundMinRho)) {
            throw new BenchmarkException("bench.regime.memoryBoundMaxRho (" + memoryBoundMaxRho + ") must be at least 0 "
                    + "and below bench.regime.computeBoundMinRho (" + computeBoundMinRho + ")");
        }
        if (!(confidenceLevel > 0 && confidenceLevel < 1)) {
            throw new BenchmarkException("bench.regime.confidenceLevel must be between 0 and 1, got " + confidenceLevel);
        }
        if (monotonicTolerance < 0 || maxRelativeResidual <= 0 || kneeMinImprovement <= 0 || kneeMinImprovement >= 1) {
            throw new BenchmarkException("bench.regime thresholds out of range: monotonicTolerance >= 0, "
                    + "maxRelativeResidual > 0, 0 < kneeMinImprovement < 1; got " + this);
        }
    }

    /** Thresholds from {@code bench.regime.*} properties; each one not given keeps its value in {@code base}. */
    public static RegimeThresholds fromProperties(Properties p, RegimeThresholds base) {
        return new RegimeThresholds(
                number(p, "memoryBoundMaxRho", base.memoryBoundMaxRho),
                number(p, "computeBoundMinRho", base.computeBoundMinRho),
                number(p, "monotonicTolerance", base.monotonicTolerance),
                number(p, "maxRelativeResidual", base.maxRelativeResidual),
                number(p, "kneeMinImprovement", base.kneeMinImprovement),
                number(p, "confidenceLevel", base.confidenceLevel));
    }

    private static double number(Properties p, String name, double fallback) {
        String value = p.getProperty("bench.regime." + name, "");
        if (value.isBlank()) {
            return fallback;
        }
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new BenchmarkException("-Dbench.regime." + name + " must be a number, got '" + value + "'", e);
        }
    }
}
