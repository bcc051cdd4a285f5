package io.inferbench.compare;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.RegimeThresholds;

/**
 * How to compare two runs (the defaults live in {@code io.inferbench.cli.Setting}).
 *
 * @param thresholdPercent   a change smaller than this is never called a regression or an improvement
 * @param confidenceLevel    family-wise: all intervals of one comparison hold together at least this often
 * @param resamples          bootstrap replicates, used only where a side has a single fork (forced comparisons)
 * @param force              compare runs that were not measured with the same ruler
 * @param thresholdsForOldRuns thresholds to classify the regimes of a run that stores no analysis (schema 1)
 * @param codeChange         a target's code may differ between the runs: it is the change under test (a pull request's)
 * @param gateP99            a passing cell must rule a regression out at p99 as well as p50 ({@code -Dcompare.gate})
 */
public record CompareOptions(double thresholdPercent, double confidenceLevel, int resamples, boolean force,
                             RegimeThresholds thresholdsForOldRuns, boolean codeChange, boolean gateP99) {
    /** Holding a target's code to the same ruler, the p50 gated alone. */
    public CompareOptions(double thresholdPercent, double confidenceLevel, int resamples, boolean force,
                          RegimeThresholds thresholdsForOldRuns) {
        this(thresholdPercent, confidenceLevel, resamples, force, thresholdsForOldRuns, false, false);
    }

    public CompareOptions {
        if (!(thresholdPercent >= 0)) {
            throw new BenchmarkException("-Dcompare.threshold must be a percentage of 0 or more, got " + thresholdPercent);
        }
        if (!(confidenceLevel > 0 && confidenceLevel < 1)) {
            throw new BenchmarkException("-Dcompare.confidence must be between 0 and 1, got " + confidenceLevel);
        }
        if (resamples < 100) {
            throw new BenchmarkException("-Dcompare.resamples must be at least 100, got " + resamples);
        }
    }

    public CompareOptions withForce(boolean newForce) {
        return new CompareOptions(thresholdPercent, confidenceLevel, resamples, newForce, thresholdsForOldRuns, codeChange,
                gateP99);
    }
}
