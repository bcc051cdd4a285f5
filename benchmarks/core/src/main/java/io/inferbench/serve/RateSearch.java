package io.inferbench.serve;

import io.inferbench.results.SlaBoundary;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoublePredicate;

/**
 * The largest arrival rate at which a policy's points pass a judge, in the manner of perf_analyzer's latency-threshold
 * search; the points are a serving point ({@link SlaSearch}: p99 from intended start under the SLA) or a generation
 * point (p99 TTFT and TPOT under the SLO), whatever {@code P} is.
 *
 * <ol>
 *   <li><b>Pre-scan</b>, simulated: a grid of rates, then bisection, on a forecast ({@link #predictBoundary}).</li>
 *   <li><b>Bracket</b>, live: a passing rate near the estimate, then a failing one above it ({@link #search}).</li>
 *   <li><b>Bisection</b>, live: {@value #STEPS} steps on the bracket's geometric midpoint.</li>
 * </ol>
 * Each live step sends requests for {@code max(pointSeconds, 200 / rate)} seconds (at most 60), so even a low rate
 * gives a p99 over 200 requests; every step is kept with its length. The search goes no lower than
 * {@link #floorRps()}, where 200 requests take the longest step, and says so when even that fails.
 *
 * @param <P> a measured point
 */
public final class RateSearch<P> {
    public static final int STEPS = 4;
    public static final int BRACKET_TRIES = 3;
    /** The first rate the live search tries, as a share of the simulated boundary. */
    public static final double FIRST_STEP = 0.7;
    static final int MIN_STEP_REQUESTS = 200;
    /** The longest live step, in seconds. */
    static final double MAX_STEP_SECONDS = 60;
    /** Rates the simulated pre-scan tries across its range, geometrically spaced. */
    static final int GRID = 24;

    /** Measures one live point at a rate for a time, under the policy being searched. */
    @FunctionalInterface
    public interface Live<P> {
        P measure(double rateRps, double seconds) throws InterruptedException;
    }

    /** Whether a point passes, and how its step is recorded. */
    public interface Judge<P> {
        boolean passes(P point);

        /** The step's record: its rate, length, requests, the p99 judged, and whether it was sustained and passed. */
        SlaBoundary.Step step(P point, double rateRps, double seconds, boolean passes);
    }

    private final Judge<P> judge;
    private final double pointSeconds;

    public RateSearch(Judge<P> judge, double pointSeconds) {
        this.judge = judge;
        this.pointSeconds = pointSeconds;
    }

    /**
     * The simulated boundary: the largest rate in [lowRps, highRps] whose predicted p99 meets the SLA, or null. The p99
     * need not fall as the rate falls: with a max wait at or above the SLA, low rates fail (every batch waits the whole
     * max wait) while higher ones pass (batches fill first). So the range is scanned from the top on a geometric grid of
     * {@value #GRID} rates, and the largest passing one is refined by bisection towards the failing one above it.
     */
    public Double predictBoundary(DoublePredicate meets, double lowRps, double highRps) {
        double ratio = Math.pow(highRps / lowRps, 1.0 / (GRID - 1));
        int passing = -1;
        for (int i = GRID - 1; i >= 0 && passing < 0; i--) {
            if (meets.test(lowRps * Math.pow(ratio, i))) {
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
            if (meets.test(mid)) {
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
    public Result<P> search(double estimateRps, boolean predictedNone, Live<P> live, List<P> measured)
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
        Double passing = null;
        for (double rate : tries) {
            if (judge.passes(steps.at(Math.max(rate, floor)))) {
                passing = Math.max(rate, floor);
                break;
            }
        }
        if (passing == null) {
            return new Result<>(null, null, SlaBoundary.NONE, floor, steps.list);
        }
        double lo = passing;
        Double failedAbove = steps.lowestFailingAbove(lo);
        double hi = Math.min(ServeOptions.MAX_RATE_RPS, Math.max(estimate * 1.3, lo * 1.5));
        for (int i = 0; failedAbove == null && i <= BRACKET_TRIES; i++) {
            if (!judge.passes(steps.at(hi))) {
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
            return steps.best(SlaBoundary.LOWER_BOUND, floor);
        }
        hi = failedAbove;
        for (int i = 0; i < STEPS; i++) {
            double mid = Math.sqrt(lo * hi);
            if (judge.passes(steps.at(mid))) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return steps.best(SlaBoundary.MEASURED, floor);
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
     * The best passing point and its rate (null when none passed), what kind of answer it is, and every step.
     *
     * @param boundary {@link SlaBoundary#MEASURED}, {@link SlaBoundary#LOWER_BOUND} or {@link SlaBoundary#NONE}
     */
    public record Result<P>(P best, Double bestRps, String boundary, double floorRps, List<SlaBoundary.Step> steps) {
    }

    public double stepSeconds(double rateRps) {
        return Math.min(MAX_STEP_SECONDS, Math.max(pointSeconds, MIN_STEP_REQUESTS / rateRps));
    }

    /** The live steps so far: a rate within 0.5% of one already measured is not measured again. */
    private final class Steps {
        private final Live<P> live;
        private final List<P> measured;
        private final TreeMap<Double, P> byRate = new TreeMap<>();
        private final List<SlaBoundary.Step> list = new ArrayList<>();

        Steps(Live<P> live, List<P> measured) {
            this.live = live;
            this.measured = measured;
        }

        P at(double rate) throws InterruptedException {
            Map.Entry<Double, P> near = byRate.ceilingEntry(rate / 1.005);
            if (near != null && near.getKey() <= rate * 1.005) {
                return near.getValue();
            }
            double seconds = stepSeconds(rate);
            P point = live.measure(rate, seconds);
            measured.add(point);
            byRate.put(rate, point);
            list.add(judge.step(point, rate, seconds, judge.passes(point)));
            return point;
        }

        /** The lowest rate above {@code rate} that failed, or null. */
        Double lowestFailingAbove(double rate) {
            return byRate.tailMap(rate, false).entrySet().stream().filter(e -> !judge.passes(e.getValue()))
                    .map(Map.Entry::getKey).findFirst().orElse(null);
        }

        /** The highest passing rate's point. */
        Result<P> best(String boundary, double floor) {
            Map.Entry<Double, P> best = byRate.descendingMap().entrySet().stream().filter(e -> judge.passes(e.getValue()))
                    .findFirst().orElse(null);
            return new Result<>(best == null ? null : best.getValue(), best == null ? null : best.getKey(), boundary, floor,
                    list);
        }
    }
}
