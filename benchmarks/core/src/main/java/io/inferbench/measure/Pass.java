package io.inferbench.measure;

/**
 * One timed unit of a cell: a forward pass, or a whole generation. {@link #forward} is the timed region: it must return
 * only once the device is synchronized and the outputs have been read, and its result is a checksum of the outputs for a
 * blackhole. What a unit needs before and after it that is not part of it (a generation's prompt tensors, the release of
 * its cache) goes in {@link #beforeTimed} and {@link #afterTimed}, which the recorder calls outside the clock.
 */
@FunctionalInterface
public interface Pass {
    long forward();

    /** Untimed, before each {@link #forward}. */
    default void beforeTimed() {
    }

    /** Untimed, after each {@link #forward}. */
    default void afterTimed() {
    }
}
