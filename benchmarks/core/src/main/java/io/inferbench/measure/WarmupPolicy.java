package io.inferbench.measure;

/**
 * When a cell's warm-up ends, in one fork. Warm-up passes run in windows; a window closes once it holds at least
 * {@code windowMinPasses} passes and has lasted {@code windowMs}. Warm-up is <b>steady</b> at the close of a window when
 * all of these hold:
 * <ol>
 *   <li>latency has stopped falling: the window's median is no more than {@code tolerance} (a fraction) below the
 *       previous window's. Warm-up transients (first-shape allocations, code not yet compiled, caches not yet filled)
 *       make early passes slower, so a later window that is faster by more than the tolerance means the transient is
 *       still going. A later window that is slower is not warm-up: it is the machine's noise or drift, which the
 *       measurement must see;</li>
 *   <li>the JIT is quiet: during the window the JVM spent at most {@code jitQuietShare} of the window's wall time
 *       compiling ({@code CompilationMXBean.getTotalCompilationTime()}). On 2 cores a compiler thread takes a core
 *       from the engine's threads, so passes timed while it works are not the steady state;</li>
 *   <li>at least {@code minMs} has passed since the cell's first warm-up pass.</li>
 * </ol>
 * Warm-up ends anyway at {@code capMs} ({@link WarmupEnd#TIME_CAP}), recorded as such. With {@code fixedPasses} set
 * ({@code -Dbench.warmup=N}) the rule is a plain count ({@link WarmupEnd#FIXED_COUNT}); 0 means no warm-up.
 *
 * @param fixedPasses     a fixed count of warm-up passes, or null for "until steady"
 * @param tolerance       how much faster (a fraction of the previous window's median) a window may be and still count as
 *                        no longer falling
 * @param windowMs        the shortest window, in milliseconds of wall time
 * @param windowMinPasses the fewest passes in a window
 * @param jitQuietShare   the largest share of a window's wall time the JIT may spend compiling while the window counts
 *                        as quiet
 * @param minMs           the shortest warm-up, in milliseconds of wall time
 * @param capMs           the longest warm-up, in milliseconds of wall time
 */
public record WarmupPolicy(Integer fixedPasses, double tolerance, long windowMs, int windowMinPasses, double jitQuietShare,
                           long minMs, long capMs) {
    /**
     * The defaults: windows of at least 50 ms (and one pass), the JIT under 5% of a window, at least 100 ms. A cell after
     * the first in a fork JVM runs in a process whose JIT has settled, and its new shape's transient (allocations of its
     * size) is over in a few passes, so two windows show it; the first cell of a JVM waits for the JIT. A pass of 50 ms
     * or more is a window of its own: it already spans many scheduler ticks. Shorter windows were tried: at 30 ms a
     * transient falling by 4% per window (5 ms to 1 ms over 200 passes) passed as steady after 77 passes
     * ({@code CellLoopTest}).
     */
    public static WarmupPolicy untilSteady(double tolerance, long capMs) {
        return new WarmupPolicy(null, tolerance, 50, 1, 0.05, 100, capMs);
    }

    public WarmupPolicy {
        if (fixedPasses != null && fixedPasses < 0) {
            throw new IllegalArgumentException("a fixed warm-up count must be 0 or more, got " + fixedPasses);
        }
        if (windowMinPasses < 1 || windowMs < 0 || minMs < 0 || capMs <= 0 || tolerance < 0 || jitQuietShare < 0) {
            throw new IllegalArgumentException("impossible warm-up policy: " + windowMinPasses + " passes, " + windowMs
                    + " ms windows, tolerance " + tolerance + ", JIT share " + jitQuietShare + ", " + minMs + " to " + capMs + " ms");
        }
    }

    public boolean fixed() {
        return fixedPasses != null;
    }
}
