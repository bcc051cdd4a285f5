package io.inferbench.results;

import java.util.List;

/**
 * The largest arrival rate a policy carries with its p99 (from intended start) at or under the SLA, found by bisection
 * on the rate after a simulated pre-scan.
 *
 * @param maxRateRps        the largest measured rate that met the SLA, or null when even the lowest tried did not
 * @param sustained         whether the generator kept its schedule at that rate (if not, its lateness is in the p99)
 * @param predictedMaxRateRps the simulator's estimate, where the live search started
 * @param steps             every live measurement, in order, with its length
 */
public record SlaBoundary(String backend, String device, String model, String policy, int concurrency, Double maxWaitMs,
                          int maxBatch, double slaP99Ms, Double maxRateRps, Double p50Ms, Double p99Ms, Double meanBatchSize,
                          Boolean sustained, Double predictedMaxRateRps, List<Step> steps) {

    /** One step of the search: the rate tried, how long and how many requests it ran, what p99 it got. */
    public record Step(double rateRps, double seconds, long requests, Double p99Ms, boolean sustained, boolean metSla) {
    }
}
