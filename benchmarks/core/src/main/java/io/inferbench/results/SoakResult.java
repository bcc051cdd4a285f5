package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.analysis.SeriesKey;

import java.util.List;

/**
 * {@code run.json}'s {@code serving.soak[]}: one sustained open-loop load for one engine, device and model, cut into
 * windows, and the trends of its latency and its memory over the windows ({@code -Dbench.soakSeconds}).
 *
 * <p>Its fields are grouped by concern (what was served, under which policy, the load, the requests) and written flat,
 * as they always were ({@link JsonUnwrapped}); an accessor per field reads through the groups.
 *
 * @param windows       each window's latencies, throughput, errors and memory, in time order
 * @param latencyTrend  the windows' p50 over time
 * @param memoryTrend   the resident set at each window's end over time
 * @param notes         what the reader should know before trusting the trends (a soak shorter than 3 minutes, a
 *                      generator that could not keep the pace)
 */
@JsonPropertyOrder({"target", "servedBy", "load", "requests", "windows", "latencyTrend", "memoryTrend", "notes"})
public record SoakResult(@JsonUnwrapped SeriesKey.EngineModel target, @JsonUnwrapped Policy servedBy,
                         @JsonUnwrapped Load load, @JsonUnwrapped Requests requests, List<Window> windows,
                         LatencyTrend latencyTrend, MemoryTrend memoryTrend, List<String> notes)
        implements SeriesKey.EngineModel.Named {

    /**
     * The serving policy.
     *
     * @param policy    its label; {@code workers}, {@code maxBatch} and {@code maxWaitMs} (null without a batcher) spell it
     *                  out
     */
    public record Policy(String policy, int workers, int maxBatch, Double maxWaitMs) {
    }

    /**
     * The load.
     *
     * @param rateRps       the arrival rate
     * @param rateSource    where the rate came from: the largest {@code bench.rate}, or a stated fraction of the SLA
     *                      boundary
     * @param seconds       how long requests were sent: a whole number of windows
     * @param windowSeconds each window's length, by intended send time
     */
    public record Load(double rateRps, String rateSource, double seconds, double windowSeconds) {
    }

    /**
     * @param sent      requests sent over the soak; {@code completed + failed}
     * @param errorRate failed over sent, over the soak
     */
    public record Requests(long sent, long completed, long failed, double errorRate) {
    }

    /** A soak shorter than this reads short-term trends only: the field asks for 3 minutes, 5 for a formal evaluation. */
    public static final double SHORTEST_SECONDS_THE_FIELD_ASKS = 180;
    /** Where no {@code bench.rate} is given, the soak runs at this fraction of the SLA boundary. */
    public static final double SLA_FRACTION = 0.8;

    /**
     * One window of the soak. Requests belong to the window of their intended send time; latency counts from it, and a
     * request still unfinished at the drain limit counts at the limit, as in a load point.
     *
     * @param startSeconds from the soak's first intended send
     * @param sent         requests meant to be sent in the window
     * @param errors       of those, the ones that failed
     * @param rps          requests completed within the window's span (by completion time), per second
     * @param rssMb        the process's resident set at the window's end, MiB (null where {@code /proc} is unreadable)
     * @param heapMb       the Java heap in use after the last collection before the window's end, MiB (the JVM's
     *                     {@code MemoryPoolMXBean.getCollectionUsage}, no collection forced)
     * @param directMb     the JVM's direct buffers then, MiB: native memory the JVM knows of (an engine's own allocations
     *                     are in {@code rssMb} only)
     * @param gpuMemoryMb  on CUDA, the device's memory in use at its highest in the window (nvidia-smi's samples), MiB
     */
    public record Window(int index, double startSeconds, long sent, long completed, long errors, double errorRate,
                         Double p50Ms, Double p99Ms, Double maxMs, double rps, Double rssMb, Double heapMb,
                         Double directMb, Double gpuMemoryMb) {
    }

    /**
     * The windows' p50 over time: Theil–Sen's slope, Sen's 95% interval and Mann–Kendall's p, as a share of the windows'
     * median p50 per minute.
     *
     * @param verdict {@code stable}, or {@code drifting} (either way: {@code percentPerMinute} has the sign) when
     *                Mann–Kendall rejects "no trend" at 5% and the rate is at least {@code floorPercentPerMinute};
     *                {@code not estimated} with fewer than 5 windows with a p50
     * @param firstMs the first window's p50, and {@code lastMs} the last's
     * @param reason  the reading in words
     */
    @JsonPropertyOrder({"measure", "slope", "floorPercentPerMinute", "verdict", "firstMs", "lastMs", "reason"})
    public record LatencyTrend(String measure, @JsonUnwrapped Slope slope, double floorPercentPerMinute, String verdict,
                               Double firstMs, Double lastMs, String reason) {

        /**
         * Theil–Sen's slope as a share of the median p50 per minute, Sen's 95% interval, the slope in ms, and
         * Mann–Kendall's p; every field null where not estimated.
         */
        public record Slope(Double percentPerMinute, Double low, Double high, Double msPerMinute, Double pValue) {
            public static final Slope NONE = new Slope(null, null, null, null, null);
        }

        // Each group's fields, read through the group, as before the groups.

        public Double percentPerMinute() {
            return slope.percentPerMinute();
        }

        public Double low() {
            return slope.low();
        }

        public Double high() {
            return slope.high();
        }

        public Double msPerMinute() {
            return slope.msPerMinute();
        }

        public Double pValue() {
            return slope.pValue();
        }
    }

    /**
     * The resident set at each window's end over time, MiB per minute: Theil–Sen's slope, Sen's 95% interval and
     * Mann–Kendall's p. The heap after collections is fitted the same way and given beside it ({@code heapMbPerMinute}):
     * a resident set that grows while the heap stays flat is native memory.
     *
     * @param verdict {@code stable}, {@code growing} (Mann–Kendall rejects "no trend" at 5% and the slope is at least
     *                {@code floorMbPerMinute}), {@code shrinking} (the same, downwards), or {@code not estimated}
     */
    @JsonPropertyOrder({"measure", "slope", "floorMbPerMinute", "verdict", "firstMb", "lastMb", "heapMbPerMinute",
            "reason"})
    public record MemoryTrend(String measure, @JsonUnwrapped Slope slope, double floorMbPerMinute, String verdict,
                              Double firstMb, Double lastMb, Double heapMbPerMinute, String reason) {

        /** Theil–Sen's slope in MiB per minute, Sen's 95% interval and Mann–Kendall's p; null where not estimated. */
        public record Slope(Double mbPerMinute, Double low, Double high, Double pValue) {
            public static final Slope NONE = new Slope(null, null, null, null);
        }

        // Each group's fields, read through the group, as before the groups.

        public Double mbPerMinute() {
            return slope.mbPerMinute();
        }

        public Double low() {
            return slope.low();
        }

        public Double high() {
            return slope.high();
        }

        public Double pValue() {
            return slope.pValue();
        }
    }

    // Each group's fields, read through the group, as before the groups.

    public String policy() {
        return servedBy.policy();
    }

    public int workers() {
        return servedBy.workers();
    }

    public int maxBatch() {
        return servedBy.maxBatch();
    }

    public Double maxWaitMs() {
        return servedBy.maxWaitMs();
    }

    public double rateRps() {
        return load.rateRps();
    }

    public String rateSource() {
        return load.rateSource();
    }

    public double seconds() {
        return load.seconds();
    }

    public double windowSeconds() {
        return load.windowSeconds();
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

    public double errorRate() {
        return requests.errorRate();
    }
}
