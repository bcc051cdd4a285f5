package io.inferbench.measure;

/**
 * When a cell's measurement stops, in one fork. Passes are timed and recorded until the p50 is <b>precise</b>: the
 * distribution-free {@code confidence} interval of the median ({@link MedianInterval}) lies within {@code ±precision}
 * (a fraction) of the median, and also
 * <ul>
 *   <li>at least {@code minPasses} were recorded: what the highest percentile the run must resolve needs per fork
 *       ({@code -Dbench.resolve}; p99 needs 100 before it is anything but the fork's maximum), and</li>
 *   <li>at least {@code minMs} of wall time has passed, so that even a sub-millisecond cell samples more than one
 *       scheduler tick, timer interrupt and young collection.</li>
 * </ul>
 * Measurement ends anyway at {@code capMs} ({@link MeasureEnd#TIME_CAP}), with the precision it reached recorded. With
 * {@code fixedPasses} set ({@code -Dbench.iterations=N}) the rule is a plain count ({@link MeasureEnd#FIXED_COUNT}).
 *
 * <p>The interval treats one fork's passes as independent draws. They are not quite (a fork drifts), which is why
 * {@code compare} builds its intervals from fork-to-fork spread and this rule only decides when one fork has seen enough.
 *
 * @param fixedPasses a fixed count of measured passes, or null for "until precise"
 * @param precision   the largest half-width of the median's interval, as a fraction of the median
 * @param confidence  the interval's confidence level
 * @param minPasses   the fewest measured passes
 * @param minMs       the shortest measurement, in milliseconds of wall time
 * @param capMs       the longest measurement, in milliseconds of wall time
 */
public record StopPolicy(Integer fixedPasses, double precision, double confidence, int minPasses, long minMs, long capMs) {
    public StopPolicy {
        if (fixedPasses != null && fixedPasses < 1) {
            throw new IllegalArgumentException("a fixed measured count must be 1 or more, got " + fixedPasses);
        }
        if (precision <= 0 || confidence <= 0 || confidence >= 1 || minPasses < 1 || minMs < 0 || capMs <= 0) {
            throw new IllegalArgumentException("impossible stop policy: precision " + precision + ", confidence " + confidence
                    + ", " + minPasses + " passes, " + minMs + " to " + capMs + " ms");
        }
    }

    public boolean fixed() {
        return fixedPasses != null;
    }

    /**
     * This rule with its floors raised where a kind of cell needs more (a generation, an A/B pair): at least
     * {@code passes} passes over at least {@code ms}, and a cap of at least {@code capAtLeastMs}; what it asks for
     * beyond them, and a fixed count, stay.
     */
    public StopPolicy atLeast(int passes, long ms, long capAtLeastMs) {
        return new StopPolicy(fixedPasses, precision, confidence, Math.max(minPasses, passes), Math.max(minMs, ms),
                Math.max(capMs, capAtLeastMs));
    }
}
