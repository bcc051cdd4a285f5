package io.inferbench.measure;

/**
 * Everything one JMH fork measured for one cell, written by the fork as a JSON file and merged by the host.
 * Histograms are {@link HistogramCodec} strings of nanoseconds.
 */
public record ForkMeasurement(
        String cellId,
        long pid,
        ColdStart coldStart,
        long warmupPasses,
        long measuredPasses,
        String warmupHistogramNs,
        String measuredHistogramNs,
        String executionProvider,
        int intraOpThreads,
        int interOpThreads,
        String engineVersion,
        String engineFlavor,
        String deviceUsed,
        String outputHandling) {
}
