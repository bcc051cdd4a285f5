package io.inferbench.measure;

/**
 * How one cell's warm-up went in one fork.
 *
 * @param passes    warm-up passes (the first pass at the cell's shape is not one: it is timed on its own)
 * @param wallMs    wall time of the warm-up, passes and the rule's checks between them
 * @param compileMs JIT compilation during it, summed over compiler threads; null where the JVM does not report it
 * @param end       why it ended
 */
public record WarmupOutcome(long passes, double wallMs, Double compileMs, WarmupEnd end) {
}
