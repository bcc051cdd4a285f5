package io.inferbench.runner;

/**
 * When a fork JVM's JIT compiles while a cell's passes run ({@code -Dbench.jitCompilation}). The fork keeps reaching
 * C2's thresholds for its whole life, and in the background a compiler thread takes a core from the engine's threads
 * mid-measurement; why, and what it costs: docs/findings.md, "The JIT during measurements". What the forks ran with is
 * in {@code config.jitCompilation}, and {@code compare} names a difference; {@code -Xbatch} in
 * {@code -Dbench.jvmArgs} compiles in the foreground everywhere, whatever this says.
 */
public enum JitCompilation implements JvmOption {
    /**
     * The default: from a cell's warm-up to the end of its measurement, compiles in the foreground
     * ({@link io.inferbench.measure.ForegroundJit}), so a compile waits between passes, never runs beside them; between
     * cells the JIT stays in the background.
     */
    FOREGROUND,
    /** HotSpot's default throughout: what a service on its defaults sees while its JIT is still working. */
    BACKGROUND
}
