package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.results.SlaBoundary;
import io.inferbench.results.SoakResult;

import java.util.Comparator;
import java.util.List;

/**
 * The one rate and policy a soak and an ablation run at: the largest {@code bench.rate} with one worker and no batcher;
 * or, without rates, {@value SoakResult#SLA_FRACTION} of the SLA boundary of the policy that carried the most load, with
 * that policy (a boundary is the edge of what meets the SLA, and a long load right at it measures the edge's noise).
 *
 * @param policy null when there is nothing to run at: {@code source} says why
 * @param source where the rate came from, in words
 */
record SustainedLoad(ServingPolicy policy, double rateRps, String source) {
    static SustainedLoad choose(List<Double> ratesRps, List<SlaBoundary> boundaries) {
        if (!ratesRps.isEmpty()) {
            double rate = ratesRps.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            return new SustainedLoad(ServingPolicy.unbatched(1), rate, "the largest -Dbench.rate");
        }
        SlaBoundary best = boundaries.stream().filter(b -> b.maxRateRps() != null)
                .max(Comparator.comparingDouble(SlaBoundary::maxRateRps)).orElse(null);
        if (best == null) {
            return new SustainedLoad(null, 0, "no rate met the SLA, so there is no boundary to run at a fraction of; give "
                    + "-Dbench.rate");
        }
        ServingPolicy policy = best.maxWaitMs() == null ? ServingPolicy.unbatched(best.concurrency())
                : new ServingPolicy(best.concurrency(), best.maxBatch(), best.maxWaitMs());
        return new SustainedLoad(policy, SoakResult.SLA_FRACTION * best.maxRateRps(), Text.f("%s of the SLA boundary of "
                + "%.1f requests/s (%s)", Text.plain(SoakResult.SLA_FRACTION), best.maxRateRps(), best.policy()));
    }
}
