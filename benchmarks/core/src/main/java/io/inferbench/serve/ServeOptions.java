package io.inferbench.serve;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.analysis.TheilSenTrend;
import io.inferbench.results.SoakResult;

import java.util.List;

/**
 * What to measure under load, after the sweep (the command line builds it from {@code bench.concurrency},
 * {@code bench.rate}, {@code bench.arrivals}, {@code bench.maxWaitMs}, {@code bench.maxBatch}, {@code bench.sla.p99Ms},
 * {@code bench.serveSeconds} and {@code bench.serveSeq}; see {@code io.inferbench.cli.Setting}).
 *
 * @param concurrencies     closed-loop client counts; each is also an open-loop policy of that many workers for the SLA
 *                          search
 * @param ratesRps          open-loop arrival rates, each run without a batcher and under every max wait
 * @param maxWaitsMs        the dynamic batcher's max waits; each is a policy with {@code maxBatch}
 * @param slaP99Ms          the p99 target for the SLA search, or null for no search
 * @param samplesPerRequest rows one request carries
 * @param seqLen            the sequence length every request is padded to
 * @param pointSeconds      how long each load point (and each step of the SLA search) sends requests
 * @param slaMaxErrorRate   the largest share of failed requests a point may have and still meet the SLA
 *                          ({@code bench.sla.maxErrorRate}, default 0)
 * @param soakSeconds       the soak's length, 0 for none ({@code bench.soakSeconds}); cut down to whole windows
 * @param soakWindowSeconds the soak's window
 * @param ablation          whether to run the load again with parts replaced ({@code bench.ablation})
 */
public record ServeOptions(List<Integer> concurrencies, List<Double> ratesRps, Arrivals arrivals, List<Double> maxWaitsMs,
                           int maxBatch, Double slaP99Ms, int samplesPerRequest, int seqLen, double pointSeconds, long seed,
                           double slaMaxErrorRate, double soakSeconds, double soakWindowSeconds, boolean ablation) {

    /** Fastest schedule the generator keeps to within its 1 ms lateness bound on a busy machine: one send per 10 µs. */
    public static final double MAX_RATE_RPS = 100_000;
    /** Fewer requests than this in a point make its p99 the maximum of a handful: refused. */
    public static final int MIN_REQUESTS_PER_POINT = 100;
    /** Requests kept in memory for one point. */
    public static final long MAX_REQUESTS_PER_POINT = 5_000_000;

    public ServeOptions {
        concurrencies = List.copyOf(concurrencies);
        ratesRps = List.copyOf(ratesRps);
        maxWaitsMs = List.copyOf(maxWaitsMs);
        for (int c : concurrencies) {
            if (c <= 0) {
                throw new BenchmarkException("-Dbench.concurrency must be 1 or more clients, got " + c);
            }
        }
        if (!(pointSeconds > 0)) {
            throw new BenchmarkException("-Dbench.serveSeconds must be more than 0, got " + pointSeconds);
        }
        for (double rate : ratesRps) {
            checkRate(rate, pointSeconds, "-Dbench.rate");
        }
        for (double wait : maxWaitsMs) {
            if (!(wait >= 0) || Double.isInfinite(wait)) {
                throw new BenchmarkException("-Dbench.maxWaitMs must be 0 or more milliseconds, got " + wait
                        + ": it is how long the batcher may hold the oldest request");
            }
        }
        if (maxBatch < 1) {
            throw new BenchmarkException("-Dbench.maxBatch must be 1 or more requests, got " + maxBatch);
        }
        if (!(slaMaxErrorRate >= 0 && slaMaxErrorRate < 1)) {
            throw new BenchmarkException("-Dbench.sla.maxErrorRate must be a share in [0, 1), e.g. 0.001 for one failed "
                    + "request in a thousand, got " + slaMaxErrorRate);
        }
        if (slaP99Ms != null && !(slaP99Ms > 0)) {
            throw new BenchmarkException("-Dbench.sla.p99Ms must be more than 0 ms, got " + slaP99Ms);
        }
        checkSustained(ratesRps, slaP99Ms, soakSeconds, soakWindowSeconds, ablation);
        if (slaP99Ms != null && concurrencies.isEmpty() && maxWaitsMs.isEmpty() && ratesRps.isEmpty()) {
            throw new BenchmarkException("-Dbench.sla.p99Ms needs a policy to search: give -Dbench.maxWaitMs, -Dbench.rate or "
                    + "-Dbench.concurrency");
        }
    }

    /** Before anything runs: a soak that gives a trend something to fit, and a rate for the soak and the ablation to run at. */
    private static void checkSustained(List<Double> ratesRps, Double slaP99Ms, double soakSeconds, double soakWindowSeconds,
                                       boolean ablation) {
        if (!(soakSeconds >= 0) || Double.isInfinite(soakSeconds)) {
            throw new BenchmarkException("-Dbench.soakSeconds must be a number of seconds, e.g. 300, got " + soakSeconds);
        }
        if (!(soakWindowSeconds > 0) || Double.isInfinite(soakWindowSeconds)) {
            throw new BenchmarkException("-Dbench.soakWindowSeconds must be more than 0 seconds, got " + soakWindowSeconds);
        }
        if (soakSeconds > 0 && soakWindows(soakSeconds, soakWindowSeconds) < TheilSenTrend.MIN_POINTS) {
            throw new BenchmarkException("-Dbench.soakSeconds=" + Text.plain(soakSeconds) + " in windows of "
                    + Text.plain(soakWindowSeconds) + " s gives " + soakWindows(soakSeconds, soakWindowSeconds)
                    + " window(s), fewer than the " + TheilSenTrend.MIN_POINTS + " a trend needs: lengthen the soak (at least "
                    + Text.plain(TheilSenTrend.MIN_POINTS * soakWindowSeconds) + " s) or shorten -Dbench.soakWindowSeconds");
        }
        if ((soakSeconds > 0 || ablation) && ratesRps.isEmpty() && slaP99Ms == null) {
            throw new BenchmarkException((soakSeconds > 0 ? "-Dbench.soakSeconds" : "-Dbench.ablation") + " needs a rate to "
                    + "run at: give -Dbench.rate (the largest is used), or -Dbench.sla.p99Ms (it runs at "
                    + Text.plain(SoakResult.SLA_FRACTION) + " of the boundary found)");
        }
    }

    /** Whole windows in a soak of {@code soakSeconds}. */
    public static int soakWindows(double soakSeconds, double soakWindowSeconds) {
        return (int) Math.floor(soakSeconds / soakWindowSeconds + 1e-9);
    }

    /** True when a soak was asked for. */
    public boolean soak() {
        return soakSeconds > 0;
    }

    /** Refuses a rate the generator cannot schedule, or one that gives too few requests to mean anything. */
    public static void checkRate(double rate, double seconds, String what) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new BenchmarkException(what + " must be more than 0 requests per second, got " + rate);
        }
        if (rate > MAX_RATE_RPS) {
            throw new BenchmarkException(what + "=" + rate + " is faster than the generator can schedule (at most "
                    + (long) MAX_RATE_RPS + " requests/s, one per 10 µs, on time within 1 ms); lower the rate");
        }
        if (rate * seconds < MIN_REQUESTS_PER_POINT) {
            throw new BenchmarkException(what + "=" + rate + " for " + seconds + " s sends about " + Math.round(rate * seconds)
                    + " requests, fewer than " + MIN_REQUESTS_PER_POINT + ": a p99 would be the maximum of a handful. Raise "
                    + "the rate or -Dbench.serveSeconds");
        }
        if (rate * seconds > MAX_REQUESTS_PER_POINT) {
            throw new BenchmarkException(what + "=" + rate + " for " + seconds + " s is more than " + MAX_REQUESTS_PER_POINT
                    + " requests in one point; shorten -Dbench.serveSeconds");
        }
    }

    /** True when anything is to be served. */
    public boolean any() {
        return !concurrencies.isEmpty() || !ratesRps.isEmpty() || !maxWaitsMs.isEmpty() || slaP99Ms != null;
    }

    /** The open-loop policies: without a batcher (one worker), one per concurrency (that many workers), one per max wait. */
    public List<ServingPolicy> policies() {
        List<ServingPolicy> policies = new java.util.ArrayList<>();
        if (!ratesRps.isEmpty() || (maxWaitsMs.isEmpty() && concurrencies.isEmpty())) {
            policies.add(ServingPolicy.unbatched(1));
        }
        for (int c : concurrencies) {
            policies.add(ServingPolicy.unbatched(c));
        }
        for (double wait : maxWaitsMs) {
            policies.add(new ServingPolicy(1, maxBatch, wait));
        }
        return List.copyOf(new java.util.LinkedHashSet<>(policies));
    }
}
