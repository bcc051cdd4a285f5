package io.inferbench.results;

/**
 * A fork of a cell that departed from its siblings ({@link io.inferbench.sweep.ForkDeparture}) and was measured again
 * in a fresh JVM: kept here, out of the cell's percentiles and histograms, so that nothing measured is lost.
 *
 * @param fork             how it ran (round, JVM, position in that JVM, warm-up and stop)
 * @param p50Ms            its p50
 * @param p99Ms            its p99
 * @param keptForksP50Ms   the median p50 of the forks the cell kept, the fresh JVM's included
 * @param histogramNs      its measured passes ({@link io.inferbench.measure.HistogramCodec})
 * @param file             its measurement's file in the cell's fork folder
 */
public record DepartedFork(CellFork fork, double p50Ms, double p99Ms, double keptForksP50Ms, String histogramNs,
                           String file) {
    /** Its p50 over the kept forks' median: above 1 it ran slower. */
    public double ratio() {
        return p50Ms / keptForksP50Ms;
    }
}
