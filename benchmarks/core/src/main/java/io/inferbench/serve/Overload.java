package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.results.LoadPointResult;

/**
 * Whether a load point kept up with its schedule, by one rule for every kind of point (forward passes served, and
 * generation requests): nothing unfinished at the drain limit, and results coming back at the rate requests were sent.
 */
public final class Overload {
    private Overload() {
    }

    /** Requests per second over the span of their intended sends: the schedule's own rate; null with fewer than two. */
    public static Double offeredRps(long sent, long firstIntendedNs, long lastIntendedNs) {
        return sent < 2 ? null : (sent - 1) / Math.max((lastIntendedNs - firstIntendedNs) / 1e9, 1e-9);
    }

    /**
     * Why the point fell behind, or null when it kept up. The span of results runs one latency past the last send; a
     * typical latency is taken off it, so a healthy point's rate of results matches its rate of sends, and one whose
     * queue grew by g falls to 1 / (1 + g/2) ({@link LoadPointResult#OVERLOAD_RATIO}).
     *
     * @param offeredRps       the schedule's rate ({@link #offeredRps}); null for closed loop, which has no schedule
     * @param typicalLatencyNs the point's median latency from intended send
     */
    public static String reason(long unfinished, long sent, long completed, Double offeredRps, long firstIntendedNs,
                                long lastDoneNs, double typicalLatencyNs) {
        if (unfinished > 0) {
            return Text.f("%d of %d requests were unfinished at the drain limit", unfinished, sent);
        }
        if (offeredRps != null && completed > 1) {
            double resultRate = completed / Math.max((lastDoneNs - firstIntendedNs - typicalLatencyNs) / 1e9, 1e-9);
            if (resultRate < LoadPointResult.OVERLOAD_RATIO * offeredRps) {
                return Text.f("results came back at %.1f requests/s against %.1f sent per second: the queue grew",
                        resultRate, offeredRps);
            }
        }
        return null;
    }
}
