package io.inferbench.probe;

/**
 * The {@link Probe} named {@code cpu}: where the CPU went over a window ({@link CpuProbe}'s readings, before and after),
 * the process's use a share of the window's threads, other processes' a share of the machine. Its reading is what the
 * disturbed-measurement rule judges ({@code CellLoop.disturbed}). Null where the JVM gives no process CPU time.
 */
public final class CpuTime implements Probe<CpuUse> {
    public static final String NAME = "cpu";

    private final CpuProbe source;
    private final int cores;

    /** This JVM and this machine. */
    public CpuTime() {
        this(CpuProbe.system(), Runtime.getRuntime().availableProcessors());
    }

    /**
     * @param source what is read ({@link CpuProbe#system()}, or a test's fake machine)
     * @param cores  the machine's logical cores: other processes' use is a share of them
     */
    public CpuTime(CpuProbe source, int cores) {
        this.source = source;
        this.cores = cores;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Object start() {
        return source.snapshot();
    }

    @Override
    public CpuUse stop(Object started, Window window) {
        CpuUse used = CpuProbe.between((CpuProbe.Snapshot) started, source.snapshot(), window.wallMs(), window.threads(), cores);
        return used.processCpuMs() == null ? null : used;
    }
}
