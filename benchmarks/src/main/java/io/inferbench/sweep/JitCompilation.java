package io.inferbench.sweep;

import io.inferbench.BenchmarkException;

import java.util.Arrays;

/**
 * When the fork JVMs' JIT compiles ({@code -Dbench.jitCompilation}): in the background, HotSpot's default, or in the
 * foreground, where the thread that made a method hot waits for its compiled code ({@code -XX:-BackgroundCompilation},
 * which is what {@code -Xbatch} sets).
 *
 * <p><b>Why it matters.</b> In the background, a compiler thread runs beside the thread that asked for it. On 2 cores an
 * engine given 2 threads then loses one of them at every parallel section for as long as the compiler works, so every
 * pass in that time is slow. A fork JVM keeps compiling for its whole life, not only at its first cell: the code
 * around a pass (ONNX Runtime's {@code OrtSession.run}, this harness's {@code forward}, the histogram) reaches C2's
 * thresholds after thousands of passes, which on the build machine was at the 10th to 13th cell, and the code that runs
 * between cells (writing a cell's results) at any cell. With {@code -Xlog:jit+compilation} on the 2-core build machine,
 * C2 compiled during 0 to 10 of the 24 measurements of one ORT fork JVM, and 13 of the 72 measurements of one sweep
 * spent over 5% of their wall time compiling (up to 50%). The warm-up rule waits for a quiet JIT before it measures, but
 * it cannot see a threshold that will be crossed later. At {@code tiny} seq 64 batch 1 those forks' p99 read 2.4 to
 * 4.6 ms where the bare loop read 0.6.
 *
 * <p>In the foreground, no compiler thread ever runs beside the engine: the compile happens while the thread that
 * triggered it waits, between passes or, once per method and JVM, inside one pass (a single outlier in the tail,
 * never a slow stretch). The JIT compiles the same methods at the same thresholds into the same code, so the steady
 * state does not change: bare {@code OrtSession.run} loops at seq 512 batch 2 read the same p50 with and without it
 * (5.73-5.96 ms in 6 JVMs), and interleaved ORT sweeps at seq 256 and 512 moved with the machine's drift, not with it.
 * The cost is the thread's wait for compiles it triggers between cells, about a second per fork JVM.
 *
 * <ul>
 *   <li>{@link #FOREGROUND}, the default, adds {@value #FOREGROUND_OPTION} to the fork JVMs' options.</li>
 *   <li>{@link #BACKGROUND} adds nothing: HotSpot's default, to measure what a service on its defaults sees while its
 *       JIT is still working.</li>
 * </ul>
 * Options the user gives that already decide it ({@code -Xbatch}, {@code -XX:+BackgroundCompilation} or
 * {@code -XX:-BackgroundCompilation} in {@code -Dbench.jvmArgs}) are never overridden: then nothing is added. The fork
 * JVMs' options in effect are recorded in {@code run.json} ({@code config.forkJvmArgs}), and {@code compare} names a
 * difference in them.
 */
public enum JitCompilation {
    FOREGROUND("foreground"),
    BACKGROUND("background");

    /** HotSpot's option for compiling in the foreground. */
    public static final String FOREGROUND_OPTION = "-XX:-BackgroundCompilation";

    private final String label;

    JitCompilation(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static JitCompilation parse(String value) {
        return Arrays.stream(values()).filter(k -> k.label.equals(value.trim())).findFirst()
                .orElseThrow(() -> new BenchmarkException("Unknown -Dbench.jitCompilation=" + value + ": expected one of "
                        + Arrays.stream(values()).map(JitCompilation::label).toList()
                        + " (foreground: the fork JVMs compile in the thread that needs the code, never beside the engine; "
                        + "background: HotSpot's default)"));
    }

    /**
     * The fork JVMs' options: the user's ({@code -Dbench.jvmArgs}, may be null or blank), with {@value #FOREGROUND_OPTION}
     * added for {@link #FOREGROUND} unless they already say how the JIT compiles.
     */
    public String forkJvmArgs(String userArgs) {
        String user = userArgs == null ? "" : userArgs.trim().replaceAll("\\s+", " ");
        boolean decided = Arrays.stream(user.split("\\s+"))
                .anyMatch(a -> a.equals("-Xbatch") || a.matches("-XX:[+-]BackgroundCompilation"));
        if (this == BACKGROUND || decided) {
            return user;
        }
        return user.isEmpty() ? FOREGROUND_OPTION : user + " " + FOREGROUND_OPTION;
    }
}
