package io.inferbench.probe;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;

/**
 * The memory one cell used in one fork: the process's resident set when the cell began (before its inputs were
 * prepared) and after its measurement, its peak over the cell, and the Java heap in use at the end. Read outside every
 * timed region.
 *
 * <p>The peak is Linux's {@code VmHWM} from {@code /proc/self/status}. It is the process's high-water mark since the
 * last reset, and writing {@code 5} to {@code /proc/self/clear_refs} resets it; the cell resets it when it begins, so
 * its peak is its own ({@code peakSince = "cell"}). Where the reset is refused, the peak is the fork JVM's since it
 * started ({@code "jvm start"}), an upper bound on the cell's. Native memory (the engine's arenas and weights) is in the
 * resident set; the Java heap is reported apart because the JVM reserves it ahead of use.
 *
 * @param rssStartMb      resident set when the cell began, MiB
 * @param rssEndMb        resident set after its measurement, MiB
 * @param peakRssMb       the resident set's peak over the cell (or since the JVM started), MiB
 * @param peakSince       {@code cell} or {@code jvm start}
 * @param heapUsedMb      Java heap in use after the measurement, MiB
 * @param heapCommittedMb Java heap the JVM had committed then, MiB
 * @param measured        the resident set and direct buffers over the measured passes alone (the inputs prepared and
 *                        the warm-up done): what grows there grows with the calls; null where not read
 */
public record MemoryUse(double rssStartMb, double rssEndMb, double peakRssMb, String peakSince, double heapUsedMb,
                        double heapCommittedMb, Measured measured) {
    /**
     * How much a cell's measured passes grew the process: a steady subject allocates what it needs in its warm-up, and its
     * measured passes leave the resident set and the direct buffers where they were.
     *
     * @param rssStartMb    resident set when the measured passes began, MiB
     * @param directStartMb direct buffers ({@code ByteBuffer.allocateDirect}) in use then, MiB
     * @param directEndMb   in use after the last measured pass, MiB
     */
    public record Measured(double rssStartMb, double directStartMb, double directEndMb) {
    }

    /** As read before the measured passes were read apart. */
    public MemoryUse(double rssStartMb, double rssEndMb, double peakRssMb, String peakSince, double heapUsedMb,
                     double heapCommittedMb) {
        this(rssStartMb, rssEndMb, peakRssMb, peakSince, heapUsedMb, heapCommittedMb, null);
    }

    /** Direct buffers that grow more than this over the measured passes: a leak, not a working set (docs/resources.md). */
    public static final double GROWING_DIRECT_MB = 32;
    /**
     * Resident set that grows more than this over the measured passes, and by more than half of where it began: more than
     * a JVM's first touches of its heap explain (docs/resources.md).
     */
    public static final double GROWING_RSS_MB = 512;

    /**
     * Why this cell's memory grew with its calls, beyond the bounds above; null when it did not, or was not read over
     * the measured passes alone.
     */
    public String growing() {
        if (measured == null) {
            return null;
        }
        double direct = measured.directEndMb() - measured.directStartMb();
        double rss = rssEndMb - measured.rssStartMb();
        if (direct > GROWING_DIRECT_MB) {
            return String.format(java.util.Locale.ROOT, "direct buffers grew by %.0f MiB over the measured passes (from %.0f to "
                    + "%.0f MiB; more than %.0f MiB)", direct, measured.directStartMb(), measured.directEndMb(), GROWING_DIRECT_MB);
        }
        if (rss > GROWING_RSS_MB && rss > measured.rssStartMb() / 2) {
            return String.format(java.util.Locale.ROOT, "the resident set grew by %.0f MiB over the measured passes (from %.0f to "
                    + "%.0f MiB; more than %.0f MiB and half its start)", rss, measured.rssStartMb(), rssEndMb, GROWING_RSS_MB);
        }
        return null;
    }

    /** Direct buffers in use now, MiB ({@code BufferPoolMXBean} "direct"); 0 where the JVM does not say. */
    public static double directMb() {
        return ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
                .filter(b -> "direct".equals(b.getName())).mapToDouble(b -> b.getMemoryUsed() / (KB_PER_MB * KB_PER_MB))
                .findFirst().orElse(0);
    }

    public static final String SINCE_CELL = "cell";
    public static final String SINCE_JVM_START = "jvm start";
    private static final double KB_PER_MB = 1024.0;

    /** The cell's growth of the resident set, MiB: what it allocated and kept. */
    public double rssGrowthMb() {
        return rssEndMb - rssStartMb;
    }

    /** Where a cell's memory is read: {@code /proc/self/status} and {@code /proc/self/clear_refs} on Linux. */
    public record Reader(Path status, Path clearRefs) {
        public static Reader self() {
            return new Reader(Path.of("/proc/self/status"), Path.of("/proc/self/clear_refs"));
        }

        /** The resident set in MiB, or NaN where {@code /proc} is not readable. */
        public double rssMb() {
            return field("VmRSS:");
        }

        double peakMb() {
            return field("VmHWM:");
        }

        /** Resets the peak to the current resident set; false where the kernel refuses (then the peak is since start). */
        public boolean resetPeak() {
            return ProcFiles.write(clearRefs.toString(), "5");
        }

        private double field(String name) {
            String text = ProcFiles.read(status.toString());
            if (text == null) {
                return Double.NaN;
            }
            for (String line : text.split("\n")) {
                if (line.startsWith(name)) {
                    try {
                        return Long.parseLong(ProcFiles.fields(line.substring(name.length())).get(0)) / KB_PER_MB;
                    } catch (RuntimeException e) {
                        return Double.NaN;
                    }
                }
            }
            return Double.NaN;
        }

        /** The figures at a cell's end, given its start; null where {@code /proc} is not readable. */
        public MemoryUse end(double rssStartMb, boolean peakWasReset) {
            return end(rssStartMb, peakWasReset, null);
        }

        /** As above, with the resident set and direct buffers read when the measured passes began. */
        public MemoryUse end(double rssStartMb, boolean peakWasReset, Measured measuredStart) {
            double end = rssMb();
            double peak = peakMb();
            if (Double.isNaN(rssStartMb) || Double.isNaN(end) || Double.isNaN(peak)) {
                return null;
            }
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            return new MemoryUse(rssStartMb, end, Math.max(peak, end), peakWasReset ? SINCE_CELL : SINCE_JVM_START,
                    heap.getUsed() / (KB_PER_MB * KB_PER_MB), heap.getCommitted() / (KB_PER_MB * KB_PER_MB),
                    measuredStart == null ? null : new Measured(measuredStart.rssStartMb(), measuredStart.directStartMb(),
                            directMb()));
        }
    }
}
