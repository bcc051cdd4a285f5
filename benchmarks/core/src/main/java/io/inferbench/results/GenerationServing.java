package io.inferbench.results;

import io.inferbench.measure.LatencySummary;

import java.util.List;
import java.util.Map;

/**
 * {@code run.json}'s {@code serving.generation}: generation requests under open-loop load
 * ({@code -Dbench.generate} with {@code -Dbench.rate} or {@code -Dbench.batching}), one decoder serving them through a
 * batching policy. Every time counts from the request's intended send (its place on the seeded schedule), so a late
 * scheduler is in the numbers, not hidden by them.
 *
 * @param conditions one per engine, device and model served
 * @param points     one per policy and rate asked, and each step of the SLO search
 * @param boundaries per policy, the highest rate whose p99 TTFT and TPOT met the SLO, with the forecast beside it; empty
 *                   without an SLO
 * @param answer     which policy held the SLO at the highest rate, in words; null without an SLO
 */
public record GenerationServing(List<Conditions> conditions, List<Point> points, List<Boundary> boundaries, String answer) {

    /**
     * How the load ran.
     *
     * @param promptLengths the prompt lengths requests draw from, uniformly and seeded
     * @param newTokens     each request's new tokens, {@code N} or {@code MIN-MAX} (uniform, seeded per request)
     * @param maxBatch      the most requests a batch holds ({@code bench.batch}'s largest)
     * @param maxWaitMs     how long static batching holds its oldest request for a fuller batch
     * @param scheduler     what runs the passes and how requests reach it
     * @param idlePenalty   how much slower a prefill is after the decoder idled, measured before the points: a request
     *                      under light load finds it idle; the forecast includes it
     */
    public record Conditions(String backend, String device, String model, List<Integer> promptLengths, String newTokens,
                             int maxBatch, double maxWaitMs, String scheduler, String idlePenalty) {
    }

    /** What served: an engine, device and model, through a batching policy ({@code static} or {@code continuous}). */
    public record Served(String backend, String device, String model, String policy) {
    }

    /**
     * The load sent.
     *
     * @param purpose    {@code point} (a rate asked) or {@code slo-step} (a step of the SLO search)
     * @param seconds    how long requests were sent
     * @param offeredRps the rate of the schedule's own sends (a Poisson schedule's differs from the rate asked)
     */
    public record Load(double rateRps, String purpose, double seconds, Double offeredRps) {
    }

    /**
     * One load point: a policy at a rate.
     *
     * @param slo      the point judged against the SLO; null without one
     * @param forecast the simulated scheduler on the same arrivals; null where the cells do not price the batches
     * @param verdict  where the decode steps sat on the batch curve and the roofline at the batches formed
     */
    public record Point(Served served, Load load, Requests requests, Latencies latency, Formed formed, Slo slo,
                        Forecast forecast, String verdict) {
    }

    /**
     * What happened to the point's requests.
     *
     * @param unfinished  requests not done at the drain limit: counted in the latencies at the limit
     * @param failed      requests whose pass failed, with the first error
     * @param overloaded  the decoder did not keep up: requests unfinished, or results came back slower than requests
     *                    were sent (the queue grew); such a point is not a sustained rate
     * @param overload    why, in words; null when it kept up
     * @param tokensPerSecond output tokens of finished requests over the point's span
     */
    public record Requests(long sent, long completed, long failed, long unfinished, String firstError, boolean overloaded,
                           String overload, double tokensPerSecond) {
        /** Failed and unfinished requests over those sent. */
        public double errorRate() {
            return sent == 0 ? 0 : (failed + unfinished) / (double) sent;
        }
    }

    /**
     * Per-request times, from HdrHistogram.
     *
     * @param ttftMs      time to first token: intended send to the first token picked (queue wait, prefill, pick)
     * @param tpotMs      time per output token: each finished request's mean gap after its first token (requests of one
     *                    new token have none)
     * @param itlMs       every inter-token gap of every request
     * @param e2eMs       intended send to the last token
     * @param queueWaitMs intended send to the start of the request's prefill
     */
    public record Latencies(LatencySummary ttftMs, LatencySummary tpotMs, LatencySummary itlMs, LatencySummary e2eMs,
                            LatencySummary queueWaitMs) {
    }

    /**
     * The batches the policy formed.
     *
     * @param stepsByRows      decode steps by the rows they ran (static batching keeps finished rows in until the batch
     *                         ends; they count)
     * @param meanStepRows     the rows of a decode step, on average
     * @param prefillsByRows   prefill passes by the prompts they took
     * @param peakCacheBytes   the most key/value cache bytes a step held, padding included
     * @param meanCacheBytes   the cache bytes held, averaged over steps
     * @param cacheOverTime    the cache held after steps across the point: at most 100 samples, evenly spread
     * @param relayoutMs       the time joins and leaves spent copying the running cache into its new padded layout (a
     *                         continuous batch's cost on an engine without paged attention), in the gaps of the rows
     *                         that stayed; near 0 for static batching, whose batches join an empty batch and never leave
     */
    public record Formed(Map<Integer, Long> stepsByRows, Double meanStepRows, Map<Integer, Long> prefillsByRows,
                         long peakCacheBytes, double meanCacheBytes, List<CacheSample> cacheOverTime, double relayoutMs) {
    }

    /** The cache after a step: {@code atMs} from the point's start; {@code usedBytes} without the padding. */
    public record CacheSample(double atMs, int rows, long bytes, long usedBytes) {
    }

    /**
     * The point judged against the SLO.
     *
     * @param ttftP99Ms   the SLO's TTFT bound at p99; null when only TPOT is bound
     * @param tpotP99Ms   the SLO's TPOT bound at p99; null when only TTFT is bound
     * @param met         the point's p99s are within the bounds, no more requests failed than allowed, and it kept up
     * @param goodputRps  requests that met every bound (each its own TTFT and TPOT) per second of the point
     * @param goodPercent those requests over those sent
     */
    public record Slo(Double ttftP99Ms, Double tpotP99Ms, boolean met, double goodputRps, double goodPercent) {
    }

    /**
     * The same arrivals run through the policy's scheduler with pass times from the generation cells' measured curves
     * (prefill by prompts and length, step by rows), beside the measurement.
     *
     * @param note what it leaves out
     */
    public record Forecast(Double ttftP50Ms, Double ttftP99Ms, Double tpotP99Ms, Double meanStepRows, String note) {
    }

    /**
     * The highest rate a policy held the SLO at.
     *
     * @param boundary     {@code measured}, {@code lower bound} (every rate tried met it) or {@code none down to the floor}
     * @param rateRps      the highest rate measured to meet the SLO; null when none did
     * @param forecastRps  the forecast's boundary, from the simulated scheduler; null when none down to the floor
     * @param goodputRps   goodput at that rate
     * @param verdict      where the decode steps sat on the batch curve and the roofline at the batches formed there
     * @param steps        every rate the search measured ({@code p99Ms} is the step's TTFT p99)
     */
    public record Boundary(Served served, String boundary, Double rateRps, Double forecastRps, Double goodputRps,
                           String verdict, List<SlaBoundary.Step> steps) {
    }
}
