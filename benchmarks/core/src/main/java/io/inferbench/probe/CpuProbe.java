package io.inferbench.probe;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the CPU went while a cell was measured: this process's CPU time, the whole machine's busy time, and each of this
 * process's threads' CPU time. Read before and after the measured passes, never between them, so it costs the timed
 * passes nothing. A reading is one small {@code /proc} file per thread, read by code that runs too rarely to be compiled
 * ({@link ProcFiles}; what it costs: docs/findings.md, "Reading /proc while interpreted").
 *
 * <p>Sources and their resolution: the process's CPU time from the JVM ({@code getProcessCpuTime}, reported in
 * nanoseconds but advancing in 10 ms steps on Linux, so a measurement of a few ms can read 0); the
 * machine's busy time from {@code /proc/stat} (user + nice + system + irq + softirq + steal, in clock ticks of
 * 10 ms on Linux), over the cores this process may run on: all of them, or, for a fork pinned to some (an A/B duet's
 * half, {@code taskset}), those cores' own lines, so that the other half's work is not counted as other processes on
 * this one's; each thread's from {@code /proc/self/task/TID/stat} (ticks), named by its {@code comm}. Where
 * {@code /proc} is not readable (not Linux), the machine and thread figures are absent, never estimated.
 */
@FunctionalInterface
public interface CpuProbe {
    /** Linux's {@code USER_HZ}: the unit of {@code /proc}'s CPU times. */
    double MS_PER_TICK = 10.0;

    Snapshot snapshot();

    /**
     * One reading.
     *
     * @param processCpuNs  this process's CPU time so far, all threads; -1 where unknown
     * @param machineBusyMs every core's busy time so far, summed; -1 where unknown
     * @param threadCpuMs   this process's threads' CPU time so far, by {@code tid:name}; empty where unknown
     */
    record Snapshot(long processCpuNs, double machineBusyMs, Map<String, Double> threadCpuMs) {
    }

    /** A probe that knows nothing: every figure unknown. */
    CpuProbe NONE = () -> new Snapshot(-1, -1, Map.of());

    /** This JVM and this machine: the cores it may run on ({@link #allowedCpus}). */
    static CpuProbe system() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.OperatingSystemMXBean sun = os instanceof com.sun.management.OperatingSystemMXBean s ? s : null;
        Path stat = Path.of("/proc/stat");
        Path tasks = Path.of("/proc/self/task");
        Set<Integer> cpus = allowedCpusOfThisProcess();
        return () -> new Snapshot(sun == null ? -1 : sun.getProcessCpuTime(), machineBusyMs(stat, cpus), threadCpuMs(tasks));
    }

    /** The cores this process may run on; null where the system does not say (not Linux). */
    static Set<Integer> allowedCpusOfThisProcess() {
        return allowedCpus(ProcFiles.read("/proc/self/status"));
    }

    /**
     * The cores a process may run on, from its {@code /proc/PID/status} text's {@code Cpus_allowed_list} (such as
     * {@code 0-3,8}); null where the text is absent or has no such line.
     */
    static Set<Integer> allowedCpus(String statusText) {
        if (statusText == null) {
            return null;
        }
        for (String line : statusText.split("\n")) {
            if (line.startsWith("Cpus_allowed_list:")) {
                try {
                    return cpuList(line.substring(line.indexOf(':') + 1).trim());
                } catch (RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** A kernel CPU list ({@code 0-3,8,10-11}) as a sorted set. */
    static Set<Integer> cpuList(String list) {
        Set<Integer> cpus = new TreeSet<>();
        for (String part : list.split(",")) {
            String range = part.trim();
            if (range.isEmpty()) {
                continue;
            }
            int dash = range.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1));
            for (int cpu = from; cpu <= to; cpu++) {
                cpus.add(cpu);
            }
        }
        return cpus;
    }

    /**
     * The busy time of {@code cpus}, in ms, from {@code /proc/stat}: its first line (every core) when {@code cpus} is
     * null or holds every core there, else the sum of those cores' own lines; -1 where unreadable.
     */
    static double machineBusyMs(Path stat, Set<Integer> cpus) {
        return busyMs(ProcFiles.read(stat.toString()), cpus);
    }

    /** {@link #machineBusyMs} of a {@code /proc/stat} text. */
    static double busyMs(String text, Set<Integer> cpus) {
        if (text == null) {
            return -1;
        }
        try {
            String[] lines = text.split("\n");
            long all = busyTicks(lines[0]);
            if (cpus == null) {
                return all * MS_PER_TICK;
            }
            long mine = 0;
            int cores = 0;
            int counted = 0;
            for (String line : lines) {
                if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                    cores++;
                    int cpu = Integer.parseInt(line.substring(3, line.indexOf(' ')));
                    if (cpus.contains(cpu)) {
                        mine += busyTicks(line);
                        counted++;
                    }
                }
            }
            return (counted == 0 || counted == cores ? all : mine) * MS_PER_TICK;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** {@code cpu user nice system idle iowait irq softirq steal ...}: the busy ones (idle and iowait are not). */
    static long busyTicks(String cpuLine) {
        List<String> f = ProcFiles.fields(cpuLine);
        long busy = 0;
        int[] busyFields = {1, 2, 3, 6, 7, 8};
        for (int i : busyFields) {
            if (i < f.size()) {
                busy += Long.parseLong(f.get(i));
            }
        }
        return busy;
    }

    /** Each thread's user + system ticks, in ms, by {@code tid:name}; empty where unreadable. */
    static Map<String, Double> threadCpuMs(Path tasks) {
        Map<String, Double> threads = new HashMap<>();
        String dir = tasks.toString();
        String[] tids = ProcFiles.list(dir);
        if (tids == null) {
            return Map.of();
        }
        for (String tid : tids) {
            String line = ProcFiles.read(dir + "/" + tid + "/stat");
            if (line == null) {
                continue; // a thread that ended between the listing and the read: it has nothing more to say
            }
            try {
                // pid (comm) state ...: the name may hold spaces and parentheses, so split after the last ')'.
                int close = line.lastIndexOf(')');
                String name = line.substring(line.indexOf('(') + 1, close);
                List<String> rest = ProcFiles.fields(line.substring(close + 1));
                // After the name: state is field 3, utime 14 and stime 15 (1-based), so 11 and 12 here.
                double ms = (Long.parseLong(rest.get(11)) + Long.parseLong(rest.get(12))) * MS_PER_TICK;
                threads.put(tid + ":" + name, ms);
            } catch (RuntimeException e) {
                // not a stat line this parser knows: the thread is left out, never guessed
            }
        }
        return threads;
    }

    /**
     * What happened between two readings over {@code wallMs}, with the engine given {@code engineThreads} threads on a
     * machine of {@code cores} logical cores.
     */
    static CpuUse between(Snapshot before, Snapshot after, double wallMs, int engineThreads, int cores) {
        Double processMs = before.processCpuNs() < 0 || after.processCpuNs() < 0 ? null
                : (after.processCpuNs() - before.processCpuNs()) / 1e6;
        Double otherMs = null;
        if (processMs != null && before.machineBusyMs() >= 0 && after.machineBusyMs() >= 0) {
            otherMs = Math.max(0, after.machineBusyMs() - before.machineBusyMs() - processMs);
        }
        List<CpuUse.ThreadCpu> top = new ArrayList<>();
        after.threadCpuMs().forEach((thread, ms) -> {
            double used = ms - before.threadCpuMs().getOrDefault(thread, 0.0);
            if (used > 0) {
                top.add(new CpuUse.ThreadCpu(thread.substring(thread.indexOf(':') + 1), used));
            }
        });
        top.sort(Comparator.comparingDouble(CpuUse.ThreadCpu::cpuMs).reversed());
        return new CpuUse(wallMs, processMs,
                processMs == null || wallMs <= 0 ? null : 100 * processMs / (wallMs * Math.max(1, engineThreads)),
                otherMs, otherMs == null || wallMs <= 0 ? null : 100 * otherMs / (wallMs * Math.max(1, cores)),
                List.copyOf(top.subList(0, Math.min(CpuUse.TOP_THREADS, top.size()))));
    }
}
