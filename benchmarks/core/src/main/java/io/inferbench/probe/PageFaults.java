package io.inferbench.probe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The page faults of this process over a window, from {@code /proc/self/stat}: minor faults (a page mapped in without
 * a disk read: fresh memory touched for the first time, or memory handed back to the kernel and taken again) and major
 * ones (a read from disk). Minor faults per pass that stay above zero in a steady state mean the allocator is giving
 * memory back between passes and the passes page it in again: the hazard {@code -Dbench.malloc=reuse} removes
 * (docs/findings.md, "glibc's allocator and an engine's tensors"). A {@link Probe}: one class and one line in
 * {@code META-INF/services/io.inferbench.probe.Probe}.
 */
public final class PageFaults implements Probe<ProbeReading> {
    static final String STAT = "/proc/self/stat";

    @Override
    public String name() {
        return "pageFaults";
    }

    @Override
    public Object start() {
        return read(ProcFiles.read(STAT));
    }

    @Override
    public ProbeReading stop(Object started, Window window) {
        long[] before = (long[]) started;
        long[] after = read(ProcFiles.read(STAT));
        if (before == null || after == null) {
            return ProbeReading.unavailable(STAT, STAT + " could not be read (not Linux)");
        }
        Map<String, Double> figures = new LinkedHashMap<>();
        long minor = after[0] - before[0];
        long major = after[1] - before[1];
        figures.put("minorFaults", (double) minor);
        figures.put("majorFaults", (double) major);
        if (window.passes() > 0) {
            figures.put("minorFaultsPerPass", (double) minor / window.passes());
            figures.put("majorFaultsPerPass", (double) major / window.passes());
        }
        return new ProbeReading(figures, STAT + " (minflt, majflt) of the measuring JVM", null);
    }

    /**
     * The minor and major fault counts of a {@code stat} line, or null where it is not one. The command name in
     * parentheses may hold spaces, so fields are counted after its closing parenthesis: {@code minflt} is the 10th
     * field of the line, {@code majflt} the 12th.
     */
    static long[] read(String stat) {
        if (stat == null) {
            return null;
        }
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        List<String> rest = ProcFiles.fields(stat.substring(close + 1));
        // rest[0] is field 3 (state): minflt (10) is rest[7], majflt (12) is rest[9].
        if (rest.size() < 10) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(rest.get(7)), Long.parseLong(rest.get(9))};
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
