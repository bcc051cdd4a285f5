package io.inferbench.measure;

import java.util.Arrays;

/**
 * The warm-up rule of one cell in one fork ({@link WarmupPolicy}), fed one pass at a time. It holds no clock of its
 * own: the caller passes the time since the first warm-up pass and the JVM's total compilation time, so the rule can
 * be driven by fakes in tests. Not thread-safe.
 */
public final class WarmupRule {
    private final WarmupPolicy policy;
    private final long windowNs;
    private long[] window = new long[64];
    private int inWindow;
    private long windowStartNs;
    private long windowStartCompileMs;
    private double previousMedianNs = Double.NaN;
    private int passes;
    private int windows;
    private WarmupEnd end;

    public WarmupRule(WarmupPolicy policy) {
        this.policy = policy;
        this.windowNs = policy.windowMs() * 1_000_000L;
        if (policy.fixed() && policy.fixedPasses() == 0) {
            end = WarmupEnd.FIXED_COUNT;
        }
    }

    /** Why warm-up has ended, or null while it goes on. Before any pass, only a fixed count of 0 has ended it. */
    public WarmupEnd end() {
        return end;
    }

    /** The passes seen so far. */
    public int passes() {
        return passes;
    }

    /** The windows closed so far (0 with a fixed count). */
    public int windows() {
        return windows;
    }

    /**
     * One warm-up pass.
     *
     * @param passNs    the pass's latency
     * @param elapsedNs wall time since the cell's first warm-up pass started, this pass included
     * @param compileMs the JVM's total compilation time now ({@code CompilationMXBean}), or -1 when it is not available
     * @return why warm-up ends after this pass, or null to go on
     */
    public WarmupEnd afterPass(long passNs, long elapsedNs, long compileMs) {
        if (end != null) {
            throw new IllegalStateException("warm-up already ended: " + end.label());
        }
        passes++;
        if (policy.fixed()) {
            return passes >= policy.fixedPasses() ? (end = WarmupEnd.FIXED_COUNT) : null;
        }
        if (windows == 0 && inWindow == 0) {
            // The first window starts with this pass; later ones start where the previous one closed.
            windowStartNs = elapsedNs - passNs;
            windowStartCompileMs = compileMs;
        }
        if (inWindow == window.length) {
            window = Arrays.copyOf(window, window.length * 2);
        }
        window[inWindow++] = passNs;
        long windowWallNs = elapsedNs - windowStartNs;
        if (inWindow >= policy.windowMinPasses() && windowWallNs >= windowNs) {
            double median = median(window, inWindow);
            boolean stoppedFalling = !Double.isNaN(previousMedianNs) && median >= (1 - policy.tolerance()) * previousMedianNs;
            long compiledMs = compileMs < 0 || windowStartCompileMs < 0 ? 0 : compileMs - windowStartCompileMs;
            boolean jitQuiet = compiledMs <= policy.jitQuietShare() * windowWallNs / 1e6;
            boolean longEnough = elapsedNs >= policy.minMs() * 1_000_000L;
            windows++;
            previousMedianNs = median;
            inWindow = 0;
            windowStartNs = elapsedNs;
            windowStartCompileMs = compileMs;
            if (stoppedFalling && jitQuiet && longEnough) {
                return end = WarmupEnd.STEADY;
            }
        }
        if (elapsedNs >= policy.capMs() * 1_000_000L) {
            return end = WarmupEnd.TIME_CAP;
        }
        return null;
    }

    /** The median of the first {@code n} values (the mean of the middle two for even n); sorts them in place. */
    private static double median(long[] values, int n) {
        Arrays.sort(values, 0, n);
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    }
}
