package io.inferbench.measure;

import io.inferbench.backend.InferenceSession;
import org.HdrHistogram.Histogram;

/**
 * Times forward passes one at a time and records each into an HdrHistogram, keeping warm-up and measured
 * passes in separate histograms so warm-up never leaks into results.
 *
 * <p>The timed region is exactly {@link InferenceSession#forward()}: inputs were built before it by
 * {@link InferenceSession#prepare}, and {@code forward} returns only once the device is synchronized and the
 * outputs have been read. Both histograms are allocated up front with a fixed range, so recording never
 * resizes: the timed path allocates nothing of its own. Not thread-safe; one recorder per benchmark thread.
 */
public final class PassRecorder {
    /** Longest recordable pass: one hour, in nanoseconds. */
    public static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;
    /** HdrHistogram precision: values are kept to 3 significant decimal digits (about 0.1% relative error). */
    public static final int SIGNIFICANT_DIGITS = 3;

    public enum Phase { WARMUP, MEASUREMENT }

    private final Histogram warmupNs = newHistogram();
    private final Histogram measuredNs = newHistogram();
    private Histogram current = warmupNs;

    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }

    public void beginPhase(Phase phase) {
        current = phase == Phase.WARMUP ? warmupNs : measuredNs;
    }

    /**
     * Times one pass with {@link System#nanoTime()} and records it in the current phase's histogram.
     *
     * @return the session's output checksum, to be sunk into a blackhole by the caller
     */
    public long timePass(InferenceSession session) {
        long startNs = System.nanoTime();
        long checksum = session.forward();
        long latencyNs = System.nanoTime() - startNs;
        current.recordValue(Math.max(1, latencyNs));
        return checksum;
    }

    public Histogram warmupNs() {
        return warmupNs;
    }

    public Histogram measuredNs() {
        return measuredNs;
    }
}
