package io.inferbench.results;

/**
 * A fork of a cell that was set aside and measured again in a fresh JVM ({@link io.inferbench.runner.ForkDeparture}):
 * kept here, out of the cell's percentiles and histograms, so that nothing measured is lost.
 *
 * @param fork           how it ran (round, JVM, position in that JVM, warm-up and stop)
 * @param p50Ms          its p50
 * @param p99Ms          its p99
 * @param keptForksP50Ms the median p50 of the forks the cell kept, the fresh JVMs' included
 * @param histogramNs    its measured passes ({@link io.inferbench.measure.HistogramCodec})
 * @param file           its measurement's file in the cell's fork folder
 * @param reason         {@value #DEPARTED}: it departed from its siblings; {@value #DOUBTED}: a sibling departed, and
 *                       the fresh JVM that measured that sibling again agreed with it, so this fork was the one in doubt.
 *                       Absent in runs from before the second reason existed, where it means {@value #DEPARTED}
 */
public record DepartedFork(CellFork fork, double p50Ms, double p99Ms, double keptForksP50Ms, String histogramNs,
                           String file, String reason) {
    /** The fork departed from its siblings by more than the factor. */
    public static final String DEPARTED = "departed";
    /** A departed sibling was confirmed by a fresh JVM: this fork, on the other side, was measured again too. */
    public static final String DOUBTED = "doubted";

    /** Its p50 over the kept forks' median: above 1 it ran slower. */
    public double ratio() {
        return p50Ms / keptForksP50Ms;
    }
}
