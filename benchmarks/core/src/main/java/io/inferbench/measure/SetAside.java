package io.inferbench.measure;

/**
 * A measurement of a cell set aside because the machine was not the cell's: other processes took more than
 * {@link CellLoop#DISTURBED_PERCENT} of it meanwhile. Its passes are kept apart (the fork's {@code setAsideHistogramNs})
 * and never mixed into the results.
 *
 * @param passes                its measured passes
 * @param wallMs                its wall time
 * @param p50Ms                 its median pass, for comparison with the kept measurement's
 * @param otherProcessesPercent the share of the machine other processes took during it
 */
public record SetAside(long passes, double wallMs, double p50Ms, double otherProcessesPercent) {
}
