package io.inferbench.serve;

import io.inferbench.results.LoadPointResult;
import io.inferbench.results.SlaBoundary;

import java.util.ArrayList;
import java.util.List;

/**
 * The largest arrival rate a policy carries with p99 (from intended start) at or under the SLA, in the manner of
 * perf_analyzer's latency-threshold search: a rate passes when every request completed and its p99 from intended
 * start meets the SLA.
 *
 * <ol>
 *   <li><b>Pre-scan</b>, simulated: a grid of rates, then bisection, with {@link QueueSimulator}, from the sweep's
 *       service times, gives a first estimate in milliseconds of CPU time ({@link #predictBoundary}).</li>
 *   <li><b>Bracket</b>, live: 0.7x and 1.3x the estimate; the lower is halved until it passes and the upper doubled until
 *       it fails, at most {@value #BRACKET_TRIES} times each.</li>
 *   <li><b>Bisection</b>, live: {@value #STEPS} steps on the bracket's geometric midpoint.</li>
 * </ol>
 * Each live step sends requests for {@code max(pointSeconds, 200 / rate)} seconds (at most 60), so even a low rate
 * gives a p99 over 200 requests; every step is kept with its length.
 */
public final class SlaSearch {
    static final int STEPS = 4;
    static final int BRACKET_TRIES = 3;
    static final int MIN_STEP_REQUESTS = 200;
    /** Rates the simulated pre-scan tries across its range, geometrically spaced. */
    static final int GRID = 24;

    /** Measures one live point at a rate for a time, under the policy being searched. */
    @FunctionalInterface
    public interface LivePoint {
        LoadPointResult measure(double rateRps, double seconds) throws InterruptedException;
    }

    /** Predicts the p99 (ms) of a rate under the policy being searched, or NaN when there is nothing to predict from. */
    @FunctionalInterface
    public interface Predictor {
        double p99Ms(double rateRps);
    }

    private final double slaP99Ms;
    private final double pointSeconds;

    public SlaSearch(double slaP99Ms, double pointSeconds) {
        this.slaP99Ms = slaP99Ms;
        this.pointSeconds = pointSeconds;
    }

    /**
     * The simulated boundary: the largest rate in [lowRps, highRps] whose predicted p99 meets the SLA, or null. The p99
     * need not fall as the rate falls: with a max wait at or above the SLA, low rates fail (every batch waits the whole
     * max wait) while higher ones pass (batches fill first). So the range is scanned from the top on a geometric grid of
     * {@value #GRID} rates, and the largest passing one is refined by bisection towards the failing one above it.
     */
    public Double predictBoundary(Predictor predictor, double lowRps, double highRps) {
        double ratio = Math.pow(highRps / lowRps, 1.0 / (GRID - 1));
        int passing = -1;
        for (int i = GRID - 1; i >= 0 && passing < 0; i--) {
            if (predictor.p99Ms(lowRps * Math.pow(ratio, i)) <= slaP99Ms) {
                passing = i;
            }
        }
        if (passing < 0) {
            return null;
        }
        if (passing == GRID - 1) {
            return highRps;
        }
        double lo = lowRps * Math.pow(ratio, passing);
        double hi = lo * ratio;
        for (int i = 0; i < 30 && hi / lo > 1.01; i++) {
            double mid = Math.sqrt(lo * hi);
            if (predictor.p99Ms(mid) <= slaP99Ms) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The live search around {@code estimateRps}; every measured point is also added to {@code measured}.
     *
     * @param predictedNone the simulator found no rate that meets the SLA: one live step confirms it (or not) instead of
     *                      halving the rate three times
     */
    public Result search(double estimateRps, boolean predictedNone, LivePoint live, List<LoadPointResult> measured)
            throws InterruptedException {
        List<SlaBoundary.Step> steps = new ArrayList<>();
        LoadPointResult best = null;
        double lo = estimateRps * 0.7;
        double hi = estimateRps * 1.3;
        LoadPointResult atLo = step(lo, live, measured, steps);
        for (int i = 0; i < (predictedNone ? 0 : BRACKET_TRIES) && !passes(atLo); i++) {
            hi = lo;
            lo /= 2;
            atLo = step(lo, live, measured, steps);
        }
        if (!passes(atLo)) {
            return new Result(null, steps);
        }
        best = atLo;
        LoadPointResult atHi = step(hi, live, measured, steps);
        for (int i = 0; i < BRACKET_TRIES && passes(atHi); i++) {
            best = atHi;
            lo = hi;
            hi *= 2;
            atHi = step(hi, live, measured, steps);
        }
        if (passes(atHi)) {
            return new Result(atHi, steps);
        }
        for (int i = 0; i < STEPS; i++) {
            double mid = Math.sqrt(lo * hi);
            LoadPointResult atMid = step(mid, live, measured, steps);
            if (passes(atMid)) {
                lo = mid;
                best = atMid;
            } else {
                hi = mid;
            }
        }
        return new Result(best, steps);
    }

    /** The best passing point (null when none passed) and every step. */
    public record Result(LoadPointResult best, List<SlaBoundary.Step> steps) {
    }

    double stepSeconds(double rateRps) {
        return Math.min(60, Math.max(pointSeconds, MIN_STEP_REQUESTS / rateRps));
    }

    private LoadPointResult step(double rate, LivePoint live, List<LoadPointResult> measured, List<SlaBoundary.Step> steps)
            throws InterruptedException {
        double seconds = stepSeconds(rate);
        LoadPointResult point = live.measure(rate, seconds);
        measured.add(point);
        steps.add(new SlaBoundary.Step(rate, seconds, point.sent(), p99(point), point.sustained(), passes(point)));
        return point;
    }

    /**
     * Met the SLA: every request completed and p99 from intended start at or under it. A late generator does not
     * disqualify a point (its lateness is in the latency, which counts from the intended start); the point says it was
     * not sustained, and so does the boundary it sets.
     */
    boolean passes(LoadPointResult point) {
        return point.failed() == 0 && point.latencyFromIntendedMs() != null && point.latencyFromIntendedMs().p99Ms() <= slaP99Ms;
    }

    private static Double p99(LoadPointResult point) {
        return point.latencyFromIntendedMs() == null ? null : point.latencyFromIntendedMs().p99Ms();
    }
}
