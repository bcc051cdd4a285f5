package io.inferbench.results;

import io.inferbench.measure.LatencySummary;

import java.util.Map;

/**
 * One load point: a mode and its parameters, run for a fixed time, every request accounted for.
 *
 * <p>Latency is counted from each request's <em>intended</em> start (its scheduled arrival, or for closed-loop
 * clients the moment the previous request returned), so a stall shows in every request it delays, not only in the one
 * it hit (no coordinated omission). {@code serviceTimeMs} is the raw time from the start of the request's batch to its
 * result, which a stall touches once.
 *
 * @param mode              {@code closed-loop} (fixed concurrency), {@code open-loop} (arrivals at a rate, one request per
 *                          pass) or {@code batching} (arrivals at a rate, a dynamic batcher in front of the workers)
 * @param policy            the label of the serving policy this point belongs to, for plots and the SLA table
 * @param concurrency       closed-loop clients, or open-loop workers (model instances serving the queue)
 * @param rateRps           the arrival rate asked for; null for closed loop
 * @param maxWaitMs         the batcher's longest hold of the oldest request; null without a batcher
 * @param maxBatch          the largest batch the batcher forms, in requests (1 without a batcher)
 * @param purpose           {@code point} for the points asked for, {@code sla-step} for the SLA search's steps
 * @param sent              requests sent; always {@code completed + failed}
 * @param lateSends         requests the generator sent more than {@link #LATE_SEND_MS} ms after their intended time
 * @param sustained         false when more than 1% of the sends were late: the generator, not the model, set the pace
 * @param achievedRps       completed requests per second, over the time from the first intended start to the last result
 * @param latencyFromIntendedMs percentiles of result time minus intended start
 * @param stagesMs          the parts of a request's time, each its own histogram: {@code generatorLag} (sent minus
 *                          intended), {@code queueWait} (batch start minus sent), {@code prepare} (input tensors),
 *                          {@code forward} (the synchronized pass), {@code fetch} (reading the output and splitting it per
 *                          request)
 * @param batchSizes        how many batches of each size (in requests) were formed
 * @param predicted         what the simulator predicted for this point from the sweep's service times, or null
 */
public record LoadPointResult(
        String backend,
        String device,
        String model,
        int seqLen,
        String mode,
        String policy,
        int concurrency,
        Double rateRps,
        Double maxWaitMs,
        int maxBatch,
        String purpose,
        double seconds,
        long sent,
        long completed,
        long failed,
        String firstError,
        long lateSends,
        boolean sustained,
        double achievedRps,
        LatencySummary latencyFromIntendedMs,
        LatencySummary serviceTimeMs,
        Map<String, LatencySummary> stagesMs,
        Map<Integer, Long> batchSizes,
        Double meanBatchSize,
        Prediction predicted,
        String histogramNs) {

    /** A send later than this after its intended time counts as late. */
    public static final double LATE_SEND_MS = 1.0;

    /**
     * The simulator's forecast for the same arrivals and policy.
     *
     * @param simulatedRequests requests simulated
     * @param cpuMs             the simulator's own CPU time
     * @param note              how the service times were taken from the sweep (measured, interpolated, extrapolated)
     */
    public record Prediction(double p50Ms, double p99Ms, double meanBatchSize, long simulatedRequests, double cpuMs, String note) {
    }
}
