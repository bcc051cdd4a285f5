package io.inferbench.measure;

/**
 * Everything one fork measured for one cell, written by the fork JVM as a JSON file and merged by the sweep.
 * Histograms are {@link HistogramCodec} strings of nanoseconds.
 *
 * @param round         the fork round, 1-based
 * @param positionInJvm the cell's place in its JVM's order, 0-based: 0 means this cell's first pass was the JVM's
 * @param coldStart     the cold start of the JVM this fork ran in: engine load, session creation, and its first pass,
 *                      which was at the shape of the cell at position 0
 * @param firstPassMs   this cell's first pass at its shape in this JVM, timed on its own and in no histogram: for the
 *                      cell at position 0 it is the JVM's cold first inference, for the others the cost of a new shape
 *                      in a warm process (new allocations, kernel selection)
 * @param warmup        how the warm-up went and why it ended
 * @param measurement   how the measurement went and why it stopped
 * @param memory        the memory the cell used, from its start to the end of its measurement; null where not read
 * @param setAsideHistogramNs the passes of measurements set aside as disturbed ({@link SetAside}), kept apart from the
 *                      results; null when none was
 */
public record ForkMeasurement(
        String cellId,
        long pid,
        int round,
        int positionInJvm,
        ColdStart coldStart,
        double firstPassMs,
        WarmupOutcome warmup,
        MeasureOutcome measurement,
        MemoryUse memory,
        String warmupHistogramNs,
        String measuredHistogramNs,
        String setAsideHistogramNs,
        String executionProvider,
        int intraOpThreads,
        int interOpThreads,
        String engineVersion,
        String engineFlavor,
        String deviceUsed,
        String outputHandling) {
}
