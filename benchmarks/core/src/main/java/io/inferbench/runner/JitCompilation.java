package io.inferbench.runner;

/**
 * When a fork JVM's JIT compiles while a cell's passes run ({@code -Dbench.jitCompilation}): in the background,
 * HotSpot's default, or in the foreground, where the thread that made a method hot waits for its compiled code.
 *
 * <p><b>Why it matters.</b> In the background, a compiler thread runs beside the thread that asked for it. On 2 cores an
 * engine given 2 threads then loses one of them at every parallel section for as long as the compiler works, so every
 * pass in that time is slow. A fork JVM keeps compiling for its whole life, not only at its first cell: the code
 * around a pass (the engine's run call, this harness's {@code forward}, the histogram) reaches C2's
 * thresholds after thousands of passes, many cells into a fork, and the code that runs between cells (writing a cell's
 * results) at any cell (how often, and what it does to a p99: docs/findings.md, "The JIT during measurements"). The
 * warm-up rule waits for a quiet JIT before it measures, but it cannot see a threshold that will be crossed later.
 *
 * <ul>
 *   <li>{@link #FOREGROUND}, the default: from the start of a cell's warm-up to the end of its measurement, the fork
 *       compiles in the foreground ({@link io.inferbench.measure.ForegroundJit}, a compiler directive with
 *       {@code BackgroundCompilation: false}; before the measurement it also waits for a compile queued before the
 *       window to end), so no compiler thread runs beside the measured passes: a compile happens while the pass loop
 *       waits, between passes or, once per method and JVM, inside one pass (a single outlier in the tail, never a slow
 *       stretch). The JIT compiles the same methods at the same thresholds into the same code, so the steady state does
 *       not change. Between cells the JIT stays in the background. The price is a compile waited for instead of run
 *       beside the passes (what it costs a sweep, and the steady state either way: docs/findings.md, "The JIT during
 *       measurements").</li>
 *   <li>{@link #BACKGROUND}: HotSpot's default throughout, to measure what a service on its defaults sees while its JIT
 *       is still working.</li>
 * </ul>
 * {@code -Xbatch} in {@code -Dbench.jvmArgs} compiles in the foreground everywhere, whatever this says. What the forks
 * ran with is recorded in {@code run.json} ({@code config.jitCompilation}), and {@code compare} names a difference.
 */
public enum JitCompilation implements JvmOption {
    FOREGROUND,
    BACKGROUND
}
