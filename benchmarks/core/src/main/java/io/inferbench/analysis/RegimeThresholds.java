package io.inferbench.analysis;

import io.inferbench.BenchmarkException;

/**
 * The numbers behind the regime rule ({@link BatchScalingAnalyzer}), configurable with
 * {@code -Dbench.regime.<name>=value} and written into {@code run.json} next to the verdicts they produced.
 *
 * <p>The central quantity is the <em>relative marginal cost</em> ρ = slope / (T(B₀) / B₀): what one more sample
 * costs, divided by what a sample costs at the smallest batch B₀. ρ ≈ 0: latency flat in batch (memory- or
 * overhead-bound). ρ ≈ 1: latency proportional to batch (compute-bound).
 *
 * <p>Their defaults live with every other property's, in {@code io.inferbench.cli.Setting}.
 *
 * @param memoryBoundMaxRho   ρ at or below this is memory-bound
 * @param computeBoundMinRho  ρ at or above this is compute-bound
 * @param monotonicTolerance  a p50 that falls more than this fraction below an earlier batch's makes the
 *                            series non-monotonic, hence inconclusive
 * @param maxRelativeResidual residual standard error of the best fit over mean latency above which the series
 *                            is too noisy to classify
 * @param kneeMinImprovement  fraction of the straight line's squared error that a flat-then-rising fit must
 *                            remove to be called a knee
 * @param confidenceLevel     for the slope's and ρ's confidence intervals
 */
public record RegimeThresholds(double memoryBoundMaxRho, double computeBoundMinRho, double monotonicTolerance,
                               double maxRelativeResidual, double kneeMinImprovement, double confidenceLevel) {

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
}
