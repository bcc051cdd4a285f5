package io.inferbench.probe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the CPU went during a measurement: /proc's formats read by hand-written files, the arithmetic by hand. */
class CpuProbeTest {
    @TempDir
    Path dir;

    /** user nice system idle iowait irq softirq steal: busy is everything but idle and iowait. */
    @Test
    void machineBusyCountsEveryBusyFieldAndNotIdleOrIowait() throws IOException {
        assertEquals(100 + 2 + 30 + 4 + 5 + 6, CpuProbe.busyTicks("cpu  100 2 30 9999 777 4 5 6 0 0"));
        Path stat = Files.writeString(dir.resolve("stat"), "cpu  100 2 30 9999 777 4 5 6 0 0\ncpu0 50 1 15 5000 300 2 2 3 0 0\n");
        assertEquals(147 * CpuProbe.MS_PER_TICK, CpuProbe.machineBusyMs(stat, null));
        assertEquals(-1, CpuProbe.machineBusyMs(dir.resolve("missing"), null));
    }

    /**
     * A fork pinned to some cores (an A/B duet's half) counts only their lines, so the other half's fork is not "other
     * processes" on its cores; pinned to every core, or to cores /proc/stat does not list, it counts the first line.
     */
    @Test
    void aPinnedProcessCountsOnlyItsOwnCores() {
        String stat = "cpu  300 0 30 9999 0 0 0 0 0 0\ncpu0 100 0 10 5000 0 0 0 0 0 0\ncpu1 200 0 20 4999 0 0 0 0 0 0\n"
                + "intr 12345\n";
        assertEquals(110 * CpuProbe.MS_PER_TICK, CpuProbe.busyMs(stat, java.util.Set.of(0)));
        assertEquals(220 * CpuProbe.MS_PER_TICK, CpuProbe.busyMs(stat, java.util.Set.of(1)));
        assertEquals(330 * CpuProbe.MS_PER_TICK, CpuProbe.busyMs(stat, java.util.Set.of(0, 1)));
        assertEquals(330 * CpuProbe.MS_PER_TICK, CpuProbe.busyMs(stat, java.util.Set.of(7)));
        assertEquals(-1, CpuProbe.busyMs(null, java.util.Set.of(0)));
    }

    /** The kernel's CPU lists: ranges and single cores, read from a status file's Cpus_allowed_list line. */
    @Test
    void allowedCpusAreReadFromTheStatusFilesList() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), List.copyOf(CpuProbe.cpuList("0-3,8,10-11")));
        assertEquals(List.of(1), List.copyOf(CpuProbe.allowedCpus("Name:\tjava\nCpus_allowed:\t2\nCpus_allowed_list:\t1\n")));
        assertNull(CpuProbe.allowedCpus("Name:\tjava\n"));
        assertNull(CpuProbe.allowedCpus(null));
    }

    /** A thread's name may hold spaces and parentheses; utime and stime are fields 14 and 15. */
    @Test
    void threadsAreReadByNameWithTheirUserAndSystemTime() throws IOException {
        Files.createDirectories(dir.resolve("41"));
        Files.createDirectories(dir.resolve("42"));
        Files.writeString(dir.resolve("41/stat"), "41 (java) S 1 41 41 0 -1 4194560 100 0 0 0 250 40 0 0 20 0 30 0 1 0 0\n");
        Files.writeString(dir.resolve("42/stat"), "42 (C2 Compiler(x)) R 1 41 41 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 30 0 1 0 0\n");
        Map<String, Double> threads = CpuProbe.threadCpuMs(dir);
        assertEquals(Map.of("41:java", 2900.0, "42:C2 Compiler(x)", 100.0), threads);
        assertEquals(Map.of(), CpuProbe.threadCpuMs(dir.resolve("missing")));
    }

    /**
     * 1 s of wall, the engine given 2 threads on a 2-core machine: the process used 1.5 s of CPU (75% of its threads),
     * the machine 1.9 s busy, so other processes took 0.4 s (20% of the machine); the busiest threads first.
     */
    @Test
    void betweenTwoReadingsGivesUtilisationOthersAndTheBusiestThreads() {
        CpuProbe.Snapshot before = new CpuProbe.Snapshot(1_000_000_000L, 10_000, Map.of("1:java", 100.0, "2:omp", 50.0,
                "3:gc", 10.0));
        CpuProbe.Snapshot after = new CpuProbe.Snapshot(2_500_000_000L, 11_900, Map.of("1:java", 800.0, "2:omp", 760.0,
                "3:gc", 10.0, "4:new", 20.0));
        CpuUse use = CpuProbe.between(before, after, 1000, 2, 2);
        assertEquals(1500, use.processCpuMs(), 1e-9);
        assertEquals(75, use.utilisationPercent(), 1e-9);
        assertEquals(400, use.otherProcessesCpuMs(), 1e-9);
        assertEquals(20, use.otherProcessesPercent(), 1e-9);
        assertEquals(List.of(new CpuUse.ThreadCpu("omp", 710), new CpuUse.ThreadCpu("java", 700), new CpuUse.ThreadCpu("new", 20)),
                use.topThreads(), "idle threads are left out; a thread born meanwhile counts from 0");
    }

    @Test
    void unknownFiguresStayUnknown() {
        CpuUse use = CpuProbe.between(CpuProbe.NONE.snapshot(), CpuProbe.NONE.snapshot(), 1000, 2, 2);
        assertNull(use.processCpuMs());
        assertNull(use.utilisationPercent());
        assertNull(use.otherProcessesPercent());
        assertTrue(use.topThreads().isEmpty());
    }

    /** The JVM's own reading: this thread's busy loop shows in the process's CPU time. */
    @Test
    void theSystemProbeSeesThisProcessWork() {
        CpuProbe probe = CpuProbe.system();
        CpuProbe.Snapshot before = probe.snapshot();
        long start = System.nanoTime();
        double sink = 0;
        while (System.nanoTime() - start < 200_000_000L) {
            sink += Math.sqrt(sink + 1);
        }
        CpuUse use = CpuProbe.between(before, probe.snapshot(), 200, 1, Runtime.getRuntime().availableProcessors());
        assertTrue(sink > 0);
        assertTrue(use.processCpuMs() > 50, "a 200 ms busy loop used CPU: " + use);
    }
}
