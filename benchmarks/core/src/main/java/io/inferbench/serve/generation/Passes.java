package io.inferbench.serve.generation;

import java.util.List;

/**
 * What the scheduler drives: a decoder's passes and the clock they are timed on. {@link EnginePasses} runs them on an
 * engine against the wall clock; {@link ForecastPasses} prices them from the generation cells' curves on a clock of
 * its own, so the forecast runs the very scheduler the measurement does.
 */
interface Passes {
    /** Nanoseconds since the point's start. */
    long nowNs();

    /** Returns at {@code ns} (the real clock: sleeps, then spins the last stretch), or at once when it has passed. */
    void waitUntil(long ns);

    /** Prefills the prompts together as new pending rows and picks each one's first token. */
    long[] prefill(List<long[]> prompts);

    /** The pending rows join the running batch. */
    void join();

    /** The running rows at these indices (ascending) leave. */
    void leave(int[] rows);

    /** One decode step over the running rows, row r fed {@code tokens[r]}; each row's next token. */
    long[] step(long[] tokens);

    /** The running batch's cache bytes, padding included; and without it. */
    long cacheBytes();

    long usedCacheBytes();

    /** Empties the batch. */
    void clear();

    /** The time the joins and leaves so far spent re-laying the running cache, in nanoseconds (0 when not measured). */
    default long relayoutNs() {
        return 0;
    }
}
