package io.inferbench.measure;

/** A monotonic nanosecond clock: {@link #SYSTEM} everywhere but in tests, which drive the rules with fakes. */
@FunctionalInterface
public interface NanoClock {
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();
}
