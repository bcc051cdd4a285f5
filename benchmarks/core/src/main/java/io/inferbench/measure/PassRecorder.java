package io.inferbench.measure;

import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Times forward passes one at a time and records each into an HdrHistogram, keeping warm-up and measured
 * passes in separate histograms so warm-up never leaks into results.
 *
 * <p>The timed region is exactly {@link Pass#forward()}: inputs were built before it, and {@code forward} returns only
 * once the device is synchronized and the outputs have been read. Both histograms are allocated up front with a fixed
 * range, so recording never resizes: the timed path allocates nothing of its own. The exact sum of each phase's
 * latencies is kept too (a histogram's mean is bucketed), for the run's account of where its wall time went.
 *
 * <p>A unit with phases of its own records them here too ({@link PhaseSink}): each phase's histogram of the measured
 * units, by name ({@link #phasesNs}). The phases a unit will record are declared before its first unit
 * ({@link #declarePhases}), or learnt from what it records before the warm-up begins (the cell's first unit at its shape),
 * so that their histograms are made outside every timed region; one first recorded while measuring gets its histogram
 * then, inside that unit. Not thread-safe; one recorder per benchmark thread.
 */
public final class PassRecorder implements PhaseSink {
    /** Longest recordable pass: one hour, in nanoseconds. */
    public static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;
    /** HdrHistogram precision: values are kept to 3 significant decimal digits (about 0.1% relative error). */
    public static final int SIGNIFICANT_DIGITS = 3;

    public enum Phase { WARMUP, MEASUREMENT }

    private final NanoClock clock;
    private final Histogram warmupNs = newHistogram();
    private final Histogram measuredNs = newHistogram();
    private final Histogram discardedNs = newHistogram();
    private final Map<String, Histogram> phasesNs = new LinkedHashMap<>();
    /** Between {@link #beginPhase} and the end: before it, a unit's phases belong to no cell phase and are dropped. */
    private boolean phaseBegun;
    private Histogram current = warmupNs;
    private long warmupSumNs;
    private long measuredSumNs;
    private boolean measuring;
    private long lastPassNs;

    public PassRecorder() {
        this(NanoClock.SYSTEM);
    }

    public PassRecorder(NanoClock clock) {
        this.clock = clock;
    }

    public static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }

    public void beginPhase(Phase phase) {
        phaseBegun = true;
        measuring = phase == Phase.MEASUREMENT;
        current = measuring ? measuredNs : warmupNs;
    }

    /**
     * Times one pass with the clock and records it in the current phase's histogram.
     *
     * @return the pass's output checksum, to be sunk into a blackhole by the caller
     */
    public long timePass(Pass pass) {
        pass.beforeTimed();
        long startNs = clock.nanoTime();
        long checksum = pass.forward();
        long latencyNs = Math.max(1, clock.nanoTime() - startNs);
        pass.afterTimed();
        current.recordValue(latencyNs);
        if (measuring) {
            measuredSumNs += latencyNs;
        } else {
            warmupSumNs += latencyNs;
        }
        lastPassNs = latencyNs;
        return checksum;
    }

    /** Makes the histograms of the phases the units will record, in this order, before any is timed. */
    public void declarePhases(java.util.Collection<String> phases) {
        phases.forEach(phase -> phasesNs.computeIfAbsent(phase, p -> newHistogram()));
    }

    /** A phase of the unit being timed: kept when the unit is a measured one ({@link PhaseSink}). */
    @Override
    public void record(String phase, long ns) {
        if (!phaseBegun) {
            // A unit run before the cell's phases (its first at the shape): the phase is learnt, its histogram made now.
            phasesNs.computeIfAbsent(phase, p -> newHistogram());
        } else if (measuring) {
            phasesNs.computeIfAbsent(phase, p -> newHistogram()).recordValue(Math.max(1, ns));
        }
    }

    /** Each phase of the measured units, by name, declared ones first; empty for a unit without phases. */
    public Map<String, Histogram> phasesNs() {
        return phasesNs;
    }

    /** The latency of the last pass timed. */
    public long lastPassNs() {
        return lastPassNs;
    }

    public Histogram warmupNs() {
        return warmupNs;
    }

    public Histogram measuredNs() {
        return measuredNs;
    }

    /** The exact sum of the warm-up passes' latencies. */
    public long warmupSumNs() {
        return warmupSumNs;
    }

    /** The exact sum of the measured passes' latencies. */
    public long measuredSumNs() {
        return measuredSumNs;
    }

    /**
     * Sets the measured passes so far aside, into {@link #discardedNs()}, and starts the measurement's histogram afresh:
     * for a measurement the machine was not ours for. They are kept, never mixed into the results.
     */
    public void discardMeasurement() {
        discardedNs.add(measuredNs);
        measuredNs.reset();
        measuredSumNs = 0;
        phasesNs.values().forEach(Histogram::reset);
    }

    /** Measured passes set aside by {@link #discardMeasurement()}. */
    public Histogram discardedNs() {
        return discardedNs;
    }
}
