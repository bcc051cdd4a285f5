package io.inferbench.runner;

import io.inferbench.engine.SessionFacts;
import io.inferbench.measure.Pass;
import io.inferbench.measure.PhaseSink;

import java.util.List;

/**
 * A cell kind's session in a fork JVM ({@link CellKind#open}): held for the JVM's lifetime and shared by all its cells.
 * Each cell asks it for its unit at its shape ({@link #prepare}); a unit is timed by the cell's recorder, warmed up until
 * steady and measured until precise.
 */
public interface KindSession extends AutoCloseable {
    /** How the session runs, as each cell records it. */
    SessionFacts facts();

    /**
     * The unit of a cell at this shape, its inputs made here, outside every timed region.
     *
     * @param seed   the run's seed: a cell's inputs depend on it and the shape only
     * @param phases where a unit with phases records them while it runs
     */
    Unit prepare(int seqLen, int batch, long seed, PhaseSink phases);

    /** Idempotent; never throws checked exceptions. */
    @Override
    void close();

    /** One cell's timed unit. */
    interface Unit extends Pass {
        /** The phases this unit records, in order, to be made before its first timed run; empty for none. */
        default List<String> phases() {
            return List.of();
        }

        /** The phases whose p50 each cell's progress line shows beside the unit's: {@link #phases} unless fewer are apt. */
        default List<String> summaryPhases() {
            return phases();
        }

        /**
         * What the kind keeps of the cell beside its numbers, read once when the cell ends and written as JSON into its
         * measurement (a generation's tokens and cache bytes); null for nothing.
         */
        default Object output() {
            return null;
        }

        /**
         * What one of the unit's own phase marks costs, in nanoseconds, where its phases are marked inside the timed
         * region (a target's stages); null where they are not (a generation's come from its own clock readings).
         */
        default Double phaseMarkCostNs() {
            return null;
        }
    }
}
