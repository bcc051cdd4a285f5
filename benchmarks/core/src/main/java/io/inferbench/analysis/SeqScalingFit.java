package io.inferbench.analysis;

import java.util.List;

/**
 * How p50 grows with sequence length at one batch size: the power law {@code p50 = c · seq^exponent}, fitted
 * by least squares on log-log axes. An exponent near 1 is linear in tokens (the projections and feed-forward
 * dominate); above 1, attention's quadratic term shows. The interval is null with fewer than three buckets.
 */
public record SeqScalingFit(String backend, String device, String model, int batch, List<Integer> seqLens,
                            List<Double> p50Ms, double exponent, Double exponentCiLow, Double exponentCiHigh,
                            Double rSquared) {
}
