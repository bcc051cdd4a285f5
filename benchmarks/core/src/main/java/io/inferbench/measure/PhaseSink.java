package io.inferbench.measure;

/**
 * Where a unit that has phases of its own (a generation: its time to first token, each decode step, each hand-off) puts
 * each phase's time while it runs, by the phase's name. The recorder keeps them for the measured units only, beside the
 * unit's own time ({@link PassRecorder#phasesNs}); what a unit records during its warm-up, its first pass at a shape or
 * a measurement set aside as disturbed is dropped with it.
 */
@FunctionalInterface
public interface PhaseSink {
    /** A sink that keeps nothing: for a unit run outside any cell (the preflight's). */
    PhaseSink NONE = (phase, ns) -> {
    };

    void record(String phase, long ns);
}
