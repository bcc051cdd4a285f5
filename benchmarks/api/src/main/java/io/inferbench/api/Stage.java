package io.inferbench.api;

/** A part of a call being timed ({@link Stages#begin}): closing it records its time. Close it once, on the same thread. */
public interface Stage extends AutoCloseable {
    /** Ends the stage and records its time; throws nothing. */
    @Override
    void close();
}
