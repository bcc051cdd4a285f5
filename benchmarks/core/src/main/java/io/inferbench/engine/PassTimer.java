package io.inferbench.engine;

import java.util.Arrays;

/**
 * The median of repeated passes, for the untimed-by-the-sweep figures (calibration peaks, a model's fixed cost per
 * call): some passes to warm up, then passes for a time budget (at least a minimum, at most {@value #MAX_PASSES}), and
 * the median pass (the upper one of an even count). The caller times each pass itself, so that whatever a pass needs
 * before or after it (a scope to free its arrays, say) stays outside the figure.
 */
public final class PassTimer {
    static final int MAX_PASSES = 100_000;

    private PassTimer() {
    }

    /** One pass that returns how long its timed part took, in nanoseconds. */
    @FunctionalInterface
    public interface TimedPass<E extends Exception> {
        long nanos() throws E;
    }

    public static <E extends Exception> long medianNanos(TimedPass<E> pass, int warmup, int minPasses, long budgetNanos)
            throws E {
        for (int i = 0; i < warmup; i++) {
            pass.nanos();
        }
        long[] nanos = new long[MAX_PASSES];
        int passes = 0;
        long end = System.nanoTime() + budgetNanos;
        while ((passes < minPasses || System.nanoTime() < end) && passes < MAX_PASSES) {
            nanos[passes++] = pass.nanos();
        }
        long[] taken = Arrays.copyOf(nanos, passes);
        Arrays.sort(taken);
        return taken[passes / 2];
    }
}
