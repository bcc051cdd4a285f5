package io.inferbench.serve;

import io.inferbench.results.LoadPointResult;
import io.inferbench.results.SlaBoundary;

import java.util.List;

/**
 * The largest arrival rate a serving policy carries with p99 (from intended start) at or under the SLA: the rate search
 * ({@link RateSearch}) with the serving points' judge. A rate passes when at most the allowed share of its requests
 * failed, the model kept up, and its p99 from intended start meets the SLA.
 */
public final class SlaSearch {
    static final int STEPS = RateSearch.STEPS;
    static final int BRACKET_TRIES = RateSearch.BRACKET_TRIES;
    /** The first rate the live search tries, as a share of the simulated boundary. */
    static final double FIRST_STEP = RateSearch.FIRST_STEP;

    /** Measures one live point at a rate for a time, under the policy being searched. */
    @FunctionalInterface
    public interface LivePoint extends RateSearch.Live<LoadPointResult> {
    }

    /** Predicts the p99 (ms) of a rate under the policy being searched, or NaN when there is nothing to predict from. */
    @FunctionalInterface
    public interface Predictor {
        double p99Ms(double rateRps);
    }

    private final double slaP99Ms;
    private final double maxErrorRate;
    private final RateSearch<LoadPointResult> search;

    public SlaSearch(double slaP99Ms, double pointSeconds) {
        this(slaP99Ms, pointSeconds, 0);
    }

    /** @param maxErrorRate the largest share of failed requests a point may have and meet the SLA */
    public SlaSearch(double slaP99Ms, double pointSeconds, double maxErrorRate) {
        this.maxErrorRate = maxErrorRate;
        this.slaP99Ms = slaP99Ms;
        this.search = new RateSearch<>(new RateSearch.Judge<>() {
            @Override
            public boolean passes(LoadPointResult point) {
                return SlaSearch.this.passes(point);
            }

            @Override
            public SlaBoundary.Step step(LoadPointResult point, double rateRps, double seconds, boolean passes) {
                return new SlaBoundary.Step(rateRps, seconds, point.sent(), p99(point), point.sustained(),
                        point.overloaded(), passes);
            }
        }, pointSeconds);
    }

    /** The simulated boundary ({@link RateSearch#predictBoundary}): the largest rate whose predicted p99 meets the SLA. */
    public Double predictBoundary(Predictor predictor, double lowRps, double highRps) {
        return search.predictBoundary(rate -> predictor.p99Ms(rate) <= slaP99Ms, lowRps, highRps);
    }

    /** The live search ({@link RateSearch#search}). */
    public Result search(double estimateRps, boolean predictedNone, LivePoint live, List<LoadPointResult> measured)
            throws InterruptedException {
        RateSearch.Result<LoadPointResult> r = search.search(estimateRps, predictedNone, live, measured);
        return new Result(r.best(), r.boundary(), r.floorRps(), r.steps());
    }

    /** {@link RateSearch#floorRps()}. */
    public static double floorRps() {
        return RateSearch.floorRps();
    }

    double stepSeconds(double rateRps) {
        return search.stepSeconds(rateRps);
    }

    /**
     * The best passing point (null when none passed), what kind of answer it is, and every step.
     *
     * @param boundary {@link SlaBoundary#MEASURED}, {@link SlaBoundary#LOWER_BOUND} or {@link SlaBoundary#NONE}
     */
    public record Result(LoadPointResult best, String boundary, double floorRps, List<SlaBoundary.Step> steps) {
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
