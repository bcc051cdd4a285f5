package io.inferbench.results;

import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.probe.MemoryUse;

/**
 * How one fork of a cell went: which round and JVM it ran in, where in that JVM's order, its first pass at the shape,
 * and why its warm-up ended and its measurement stopped.
 *
 * @param positionInJvm 0-based place in its JVM's order; 0 means the cell's first pass was the JVM's cold first inference
 * @param firstPassMs   the first pass at the cell's shape in that JVM, timed on its own and in no histogram
 * @param memory        the memory the cell used in that fork ({@link MemoryUse}); null in runs before schema 10
 */
public record CellFork(int round, long pid, int positionInJvm, double firstPassMs, WarmupOutcome warmup,
                       MeasureOutcome measurement, MemoryUse memory) {

    public CellFork(int round, long pid, int positionInJvm, double firstPassMs, WarmupOutcome warmup, MeasureOutcome measurement) {
        this(round, pid, positionInJvm, firstPassMs, warmup, measurement, null);
    }
}
