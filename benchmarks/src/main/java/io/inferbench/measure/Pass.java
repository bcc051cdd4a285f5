package io.inferbench.measure;

/**
 * One forward pass: the timed region. It must return only once the device is synchronized and the outputs have
 * been read ({@code InferenceSession.forward} does both), and its result is a checksum of the outputs for a blackhole.
 */
@FunctionalInterface
public interface Pass {
    long forward();
}
