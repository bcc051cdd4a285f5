package io.inferbench.serve;

import io.inferbench.results.LoadPointResult;
import io.inferbench.results.SlaBoundary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The largest arrival rate a policy carries with p99 (from intended start) at or under the SLA, in the manner of
 * perf_analyzer's latency-threshold search: a rate passes when every request completed and its p99 from intended
 * start meets the SLA.
 *
 * <ol>
 *   <li><b>Pre-scan</b>, simulated: a grid of rates, then bisection, with {@link QueueSimulator}, from the sweep's
 *       service times, gives a first estimate in milliseconds of CPU time ({@link #predictBoundary}).</li>
 *   <li><b>Bracket</b>, live: a passing rate near the estimate, then a failing one above it ({@link #search}).</li>
 *   <li><b>Bisection</b>, live: {@value #STEPS} steps on the bracket's geometric midpoint.</li>
 * </ol>
 * Each live step sends requests for {@code max(pointSeconds, 200 / rate)} seconds (at most 60), so even a low rate
 * gives a p99 over 200 requests; every step is kept with its length. The search goes no lower than
 * {@link #floorRps()}, where 200 requests take the longest step, and says so when even that fails.
 */
public final class SlaSearch {
    static final int STEPS = 4;
    static final int BRACKET_TRIES = 3;
    /** The first rate the live search tries, as a share of the simulated boundary. */
    static final double FIRST_STEP = 0.7;
    static final int MIN_STEP_REQUESTS = 200;
    /** The longest live step, in seconds. */
    static final double MAX_STEP_SECONDS = 60;
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

    private final double maxErrorRate;

    public SlaSearch(double slaP99Ms, double pointSeconds) {
        this(slaP99Ms, pointSeconds, 0);
    }

    /** @param maxErrorRate the largest share of failed requests a point may have and meet the SLA */
    public SlaSearch(double slaP99Ms, double pointSeconds, double maxErrorRate) {
        this.maxErrorRate = maxErrorRate;
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
     * The live search around {@code estimateRps}, never below {@link #floorRps()}; every measured point is also added
     * to {@code measured}, and no rate is measured twice.
     *
     * <ol>
     *   <li><b>A passing rate.</b> 0.7x and 0.85x the estimate, then the estimate itself (the simulator's own boundary,
     *       which it predicted to pass), then halving towards the floor, and the floor last. The p99 need not rise with
     *       the rate: with a max wait near the SLA, rates under a narrow passing band fail too, so the band the
     *       simulator found is tried before the search walks away from it.</li>
     *   <li><b>A failing rate above it</b>: the lowest that already failed above it, or 1.3x the estimate (at least
     *       1.5x the passing rate), doubled while it passes, at most {@value #BRACKET_TRIES} times. When every rate
     *       tried passed, the result is a lower bound, and says so.</li>
     *   <li><b>Bisection</b>, {@value #STEPS} steps on the geometric midpoint of the highest passing rate and the
     *       lowest failing one above it.</li>
     * </ol>
     *
     * @param predictedNone the simulator found no rate down to the floor that meets the SLA: one live step at the floor
     *                      confirms it or not
     */
    public Result search(double estimateRps, boolean predictedNone, LivePoint live, List<LoadPointResult> measured)
            throws InterruptedException {
        Steps steps = new Steps(live, measured);
        double floor = floorRps();
        double estimate = predictedNone ? floor : Math.max(estimateRps, floor);
        List<Double> tries = new ArrayList<>();
        if (!predictedNone) {
            tries.add(estimate * FIRST_STEP);
            tries.add(estimate * 0.85);
            tries.add(estimate);
            for (double r = estimate * 0.35; r > floor && tries.size() < 3 + BRACKET_TRIES; r /= 2) {
                tries.add(r);
            }
        }
        tries.add(floor);
        LoadPointResult passing = null;
        for (double rate : tries) {
            LoadPointResult point = steps.at(Math.max(rate, floor));
            if (passes(point)) {
                passing = point;
                break;
            }
        }
        if (passing == null) {
            return new Result(null, SlaBoundary.NONE, floor, steps.list);
        }
        double lo = passing.rateRps();
        Double failedAbove = steps.lowestFailingAbove(lo);
        double hi = Math.min(ServeOptions.MAX_RATE_RPS, Math.max(estimate * 1.3, lo * 1.5));
        for (int i = 0; failedAbove == null && i <= BRACKET_TRIES; i++) {
            if (!passes(steps.at(hi))) {
                failedAbove = hi;
                break;
            }
            lo = hi;
            if (hi >= ServeOptions.MAX_RATE_RPS) {
                break;
            }
            hi = Math.min(ServeOptions.MAX_RATE_RPS, hi * 2);
        }
        if (failedAbove == null) {
            return new Result(steps.bestPassing(), SlaBoundary.LOWER_BOUND, floor, steps.list);
        }
        hi = failedAbove;
        for (int i = 0; i < STEPS; i++) {
            double mid = Math.sqrt(lo * hi);
            if (passes(steps.at(mid))) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new Result(steps.bestPassing(), SlaBoundary.MEASURED, floor, steps.list);
    }

    /**
     * The lowest rate the search measures: one whose step's {@value #MIN_STEP_REQUESTS} requests take the longest step,
     * {@value #MAX_STEP_SECONDS} s. Below it a step could not give a p99 over enough requests in the time a search may
     * take; a model that meets the SLA only below it gets "none down to the floor".
     */
    public static double floorRps() {
        return MIN_STEP_REQUESTS / MAX_STEP_SECONDS;
    }

    /**
     * The best passing point (null when none passed), what kind of answer it is, and every step.
     *
     * @param boundary {@link SlaBoundary#MEASURED}, {@link SlaBoundary#LOWER_BOUND} or {@link SlaBoundary#NONE}
     */
    public record Result(LoadPointResult best, String boundary, double floorRps, List<SlaBoundary.Step> steps) {
    }

    double stepSeconds(double rateRps) {
        return Math.min(MAX_STEP_SECONDS, Math.max(pointSeconds, MIN_STEP_REQUESTS / rateRps));
    }

    /** The live steps so far: a rate within 0.5% of one already measured is not measured again. */
    private final class Steps {
        private final LivePoint live;
        private final List<LoadPointResult> measured;
        private final TreeMap<Double, LoadPointResult> byRate = new TreeMap<>();
        private final List<SlaBoundary.Step> list = new ArrayList<>();

        Steps(LivePoint live, List<LoadPointResult> measured) {
            this.live = live;
            this.measured = measured;
        }

        LoadPointResult at(double rate) throws InterruptedException {
            Map.Entry<Double, LoadPointResult> near = byRate.ceilingEntry(rate / 1.005);
            if (near != null && near.getKey() <= rate * 1.005) {
                return near.getValue();
            }
            double seconds = stepSeconds(rate);
            LoadPointResult point = live.measure(rate, seconds);
            measured.add(point);
            byRate.put(rate, point);
            list.add(new SlaBoundary.Step(rate, seconds, point.sent(), p99(point), point.sustained(), point.overloaded(),
                    passes(point)));
            return point;
        }

        /** The lowest rate above {@code rate} that failed, or null. */
        Double lowestFailingAbove(double rate) {
            return byRate.tailMap(rate, false).entrySet().stream().filter(e -> !passes(e.getValue()))
                    .map(Map.Entry::getKey).findFirst().orElse(null);
        }

        LoadPointResult bestPassing() {
            return byRate.descendingMap().values().stream().filter(SlaSearch.this::passes).findFirst().orElse(null);
        }
    }

    /**
     * Met the SLA: at most {@code maxErrorRate} of the requests failed (0 by default: every request completed), the model
     * kept up, and the p99 from intended start is at or under it. A late generator does not
     * disqualify a point (its lateness is in the latency, which counts from the intended start); the point says it was
     * not sustained, and so does the boundary it sets.
     */
    boolean passes(LoadPointResult point) {
        return point.errorRate() <= maxErrorRate && !point.overloaded() && point.latencyFromIntendedMs() != null
                && point.latencyFromIntendedMs().p99Ms() <= slaP99Ms;
    }

    private static Double p99(LoadPointResult point) {
        return point.latencyFromIntendedMs() == null ? null : point.latencyFromIntendedMs().p99Ms();
    }
}
