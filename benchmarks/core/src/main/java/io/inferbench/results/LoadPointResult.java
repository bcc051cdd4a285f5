package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.LatencySummary;

import java.util.Map;

/**
 * One load point: a mode and its parameters, run for a fixed time, every request accounted for. Its fields are grouped
 * by concern (what served: the series, whose sequence length is the one requests were padded to; the load, the
 * requests, the pacing, the latency) and written flat in {@code run.json}, as they always were ({@link JsonUnwrapped});
 * an accessor per field reads through the groups.
 *
 * @param predicted what the simulator predicted for this point from the sweep's service times, or null
 * @param resources what the point cost besides time: CPU, energy per request, and on CUDA the GPU's samples; null in
 *                  runs before it was read
 */
public record LoadPointResult(@JsonUnwrapped SeriesKey series, @JsonUnwrapped Load load,
                              @JsonUnwrapped Requests requests, @JsonUnwrapped Pacing pacing,
                              @JsonUnwrapped Latency latency, Prediction predicted, String histogramNs,
                              PointResources resources) implements SeriesKey.Named {

    /**
     * The load: its mode, the policy serving it and the rate or clients, for how long and why.
     *
     * @param mode        {@code closed-loop} (fixed concurrency), {@code open-loop} (arrivals at a rate, one request
     *                    per pass) or {@code batching} (arrivals at a rate, a dynamic batcher in front of the workers)
     * @param policy      the label of the serving policy this point belongs to, for plots and the SLA table
     * @param concurrency closed-loop clients, or open-loop workers (model instances serving the queue)
     * @param rateRps     the arrival rate asked for; null for closed loop
     * @param maxWaitMs   the batcher's longest hold of the oldest request; null without a batcher
     * @param maxBatch    the largest batch the batcher forms, in requests (1 without a batcher)
     * @param purpose     {@code point} for the points asked for, {@code sla-step} for the SLA search's steps
     */
    public record Load(String mode, String policy, int concurrency, Double rateRps, Double maxWaitMs, int maxBatch,
                       String purpose, double seconds) {
    }

    /**
     * What became of the requests.
     *
     * @param sent       requests sent; always {@code completed + failed}
     * @param lateSends  requests the generator sent more than {@link #LATE_SEND_MS} ms after their intended time
     * @param unfinished requests still unfinished at the drain limit (part of {@code failed}); each one's latency is
     *                   counted to the drain limit, so the percentiles they reach are lower bounds ({@link
     *                   #p99LowerBound()})
     */
    public record Requests(long sent, long completed, long failed, String firstError, long lateSends, long unfinished) {
    }

    /**
     * Whether the generator kept its schedule and the model kept up with it, and the rates that say so.
     *
     * @param paced            at most 1% of the sends were late; when false, the generator, not the model, set the pace
     * @param overloaded       the model fell behind: requests unfinished at the drain limit, or results coming back
     *                         slower than the requests were sent ({@link #OVERLOAD_RATIO}); {@code overloadReason} says it
     * @param sustained        {@code paced && !overloaded}: the point measured the model at the rate asked
     * @param offeredRps       over the span of the intended starts, and {@code sentRps} of the actual sends; null for
     *                         closed loop
     * @param generatorLimited the generator sent more than 2% slower than the schedule ({@link #GENERATOR_RATE_RATIO}):
     *                         the point measured its pace, not the rate asked (late sends alone do not make it: their
     *                         lateness is in the latency from intended start)
     * @param achievedRps      completed requests per second, from the first intended start to the last result
     */
    public record Pacing(boolean paced, boolean overloaded, String overloadReason, boolean sustained, Double offeredRps,
                         Double sentRps, boolean generatorLimited, double achievedRps) {
    }

    /**
     * The latencies, their stages, and the batches formed. Latency counts from each request's intended start (its
     * scheduled arrival, or a closed-loop client's previous result), so a stall shows in every request it delays (no
     * coordinated omission); {@code serviceTimeMs} runs from its batch's start, which a stall touches once.
     *
     * @param latencyFromIntendedMs over the completed requests and the unfinished ones (counted to the drain limit);
     *                              requests failed by an error are left out
     * @param stagesMs              a request's time in parts, each its own histogram, adding up to its latency from
     *                              intended start: {@code generatorLag}, {@code workerWait} (until its worker was free),
     *                              {@code batcherHold} (until its batch started), {@code tokenize} (text workloads),
     *                              {@code prepare}, {@code forward} (the synchronized pass), {@code fetch}
     * @param batchSizes            how many batches of each size (in requests) were formed
     */
    public record Latency(LatencySummary latencyFromIntendedMs, LatencySummary serviceTimeMs,
                          Map<String, LatencySummary> stagesMs, Map<Integer, Long> batchSizes, Double meanBatchSize) {
    }

    /** Without what the point cost besides time (runs before it was read). */
    public LoadPointResult(SeriesKey series, Load load, Requests requests, Pacing pacing, Latency latency,
                           Prediction predicted, String histogramNs) {
        this(series, load, requests, pacing, latency, predicted, histogramNs, null);
    }

    /**
     * The share of the requests sent that failed: by an error, or unfinished at the drain limit ({@code failed / sent};
     * 0 when none were sent). An SLA holds only at or under {@code bench.sla.maxErrorRate}.
     */
    @com.fasterxml.jackson.annotation.JsonProperty("errorRate")
    public double errorRate() {
        return sent() == 0 ? 0 : failed() / (double) sent();
    }

    public LoadPointResult withResources(PointResources read) {
        return new LoadPointResult(series, load, requests, pacing, latency, predicted, histogramNs, read);
    }

    public String mode() {
        return load.mode();
    }

    public String policy() {
        return load.policy();
    }

    public int concurrency() {
        return load.concurrency();
    }

    public Double rateRps() {
        return load.rateRps();
    }

    public Double maxWaitMs() {
        return load.maxWaitMs();
    }

    public int maxBatch() {
        return load.maxBatch();
    }

    public String purpose() {
        return load.purpose();
    }

    public double seconds() {
        return load.seconds();
    }

    public long sent() {
        return requests.sent();
    }

    public long completed() {
        return requests.completed();
    }

    public long failed() {
        return requests.failed();
    }

    public String firstError() {
        return requests.firstError();
    }

    public long lateSends() {
        return requests.lateSends();
    }

    public long unfinished() {
        return requests.unfinished();
    }

    public boolean paced() {
        return pacing.paced();
    }

    public boolean overloaded() {
        return pacing.overloaded();
    }

    public String overloadReason() {
        return pacing.overloadReason();
    }

    public boolean sustained() {
        return pacing.sustained();
    }

    public Double offeredRps() {
        return pacing.offeredRps();
    }

    public Double sentRps() {
        return pacing.sentRps();
    }

    public boolean generatorLimited() {
        return pacing.generatorLimited();
    }

    public double achievedRps() {
        return pacing.achievedRps();
    }

    public LatencySummary latencyFromIntendedMs() {
        return latency.latencyFromIntendedMs();
    }

    public LatencySummary serviceTimeMs() {
        return latency.serviceTimeMs();
    }

    public Map<String, LatencySummary> stagesMs() {
        return latency.stagesMs();
    }

    public Map<Integer, Long> batchSizes() {
        return latency.batchSizes();
    }

    public Double meanBatchSize() {
        return latency.meanBatchSize();
    }

    /** A send later than this after its intended time counts as late. */
    public static final double LATE_SEND_MS = 1.0;
    /**
     * A point whose results came back at less than this share of the rate its requests were sent is overloaded: the
     * queue grew while it ran (by about 10% of the point's length or more). The rate of results is taken over the span
     * from the first intended start to the last result less the median latency, which a healthy point's last results
     * add and an overloaded point's growing backlog outgrows.
     */
    public static final double OVERLOAD_RATIO = 0.95;
    /** A generator that sent at less than this share of the schedule's rate could not keep it. */
    public static final double GENERATOR_RATE_RATIO = 0.98;

    /**
     * Whether the p99 from intended start is only a lower bound: more than 1% of the requests it ranks were unfinished
     * at the drain limit and are counted as finishing there.
     */
    public boolean p99LowerBound() {
        return unfinished() > 0.01 * (completed() + unfinished());
    }

    /**
     * The simulator's forecast for the same arrivals and policy.
     *
     * @param simulatedRequests requests simulated
     * @param cpuMs             the simulator's own CPU time
     * @param note              how the service times were taken from the sweep (measured, interpolated, extrapolated)
     * @param servedPassRatio   measured after the point: its batches' service (batch start to result) over the
     *                          forecast's median pass at the same batch size, median over batches; 1.10 means the passes
     *                          ran 10% slower served than the forecast drew them; null where no batch completed
     * @param servedPassP99Ratio  the same ratios' 99th percentile: the served passes' tail against the forecast's median
     *                          (compare the sweep's own p99/p50 at those sizes); null where no batch completed
     * @param replayedP99Ms       open loop only: the point simulated again on its own sends (each request entering the
     *                          queue when the generator really sent it, counted from when it was meant to), passes drawn
     *                          independently as the point served them. Well under the measured p99: the live passes'
     *                          slowness came in spells (the machine's speed moving, stalls in clusters), which independent
     *                          draws spread out; null where not replayed
     * @param replayedInTimeP99Ms open loop only: the same replay with each pass taking the served ratio of the batch that
     *                          was running when it starts, so that slow spells stay where and as long as they were
     *                          ({@code QueueSimulator#servedInTime}). Near the measured p99 where {@code replayedP99Ms}
     *                          is well under it: the queueing model holds, and what independent draws miss is when the
     *                          slow passes came; null where not replayed
     */
    public record Prediction(double p50Ms, double p99Ms, double meanBatchSize, long simulatedRequests, double cpuMs, String note,
                             @JsonUnwrapped ServedPasses served) {
        /** Before the point ran: nothing served yet. */
        public Prediction(double p50Ms, double p99Ms, double meanBatchSize, long simulatedRequests, double cpuMs, String note) {
            this(p50Ms, p99Ms, meanBatchSize, simulatedRequests, cpuMs, note, null);
        }

        public Prediction withServedPasses(Double medianRatio, Double p99Ratio, Double replayedP99Ms,
                                           Double replayedInTimeP99Ms) {
            return new Prediction(p50Ms, p99Ms, meanBatchSize, simulatedRequests, cpuMs, note,
                    new ServedPasses(medianRatio, p99Ratio, replayedP99Ms, replayedInTimeP99Ms));
        }

        public Double servedPassRatio() {
            return served == null ? null : served.servedPassRatio();
        }

        public Double servedPassP99Ratio() {
            return served == null ? null : served.servedPassP99Ratio();
        }

        public Double replayedP99Ms() {
            return served == null ? null : served.replayedP99Ms();
        }

        public Double replayedInTimeP99Ms() {
            return served == null ? null : served.replayedInTimeP99Ms();
        }
    }

    /** What the point's passes were as served, against the forecast's, and the point replayed with them. */
    public record ServedPasses(Double servedPassRatio, Double servedPassP99Ratio, Double replayedP99Ms,
                               Double replayedInTimeP99Ms) {
    }
}
