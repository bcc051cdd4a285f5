package io.inferbench.measure;

import org.HdrHistogram.Histogram;

/**
 * The stop rule of one cell in one fork ({@link StopPolicy}), asked after every measured pass. The median's interval
 * costs a walk over the histogram, so it is computed only when the pass count has grown by 5% since the last time
 * (and at least by one pass), outside the timed region: checking is cheap next to any pass, and the rule stops at
 * most 5% later than a check after every pass would. Not thread-safe.
 */
public final class StopRule {
    /** Growth of the pass count between two computations of the interval. */
    static final double CHECK_GROWTH = 1.05;

    private final StopPolicy policy;
    private long nextCheck;
    private MedianInterval last;
    private MeasureEnd end;

    public StopRule(StopPolicy policy) {
        this.policy = policy;
        this.nextCheck = Math.max(policy.minPasses(), 6);
    }

    /** Why measurement stopped, or null while it goes on. */
    public MeasureEnd end() {
        return end;
    }

    /** The last interval computed, or null before any (fewer than 6 passes, or none computed yet). */
    public MedianInterval interval() {
        return last;
    }

    /**
     * After one measured pass.
     *
     * @param measured  every measured pass of this cell in this fork so far
     * @param elapsedNs wall time since the first measured pass started, this pass included
     * @return why measurement stops now, or null to go on
     */
    public MeasureEnd afterPass(Histogram measured, long elapsedNs) {
        if (end != null) {
            throw new IllegalStateException("measurement already stopped: " + end.label());
        }
        long n = measured.getTotalCount();
        if (policy.fixed()) {
            if (n >= policy.fixedPasses()) {
                last = MedianInterval.of(measured, policy.confidence());
                return end = MeasureEnd.FIXED_COUNT;
            }
            return null;
        }
        boolean capped = elapsedNs >= policy.capMs() * 1_000_000L;
        boolean eligible = n >= policy.minPasses() && elapsedNs >= policy.minMs() * 1_000_000L;
        if (capped || (eligible && n >= nextCheck)) {
            last = MedianInterval.of(measured, policy.confidence());
            nextCheck = Math.max(n + 1, (long) Math.ceil(n * CHECK_GROWTH));
            if (eligible && last != null && last.halfWidth() <= policy.precision()) {
                return end = MeasureEnd.PRECISE;
            }
        }
        return capped ? (end = MeasureEnd.TIME_CAP) : null;
    }
}
