package io.inferbench.probe;

import java.util.List;

/**
 * Where the CPU went during one cell's measured passes in one fork ({@link CpuProbe}).
 *
 * @param wallMs                the measurement's wall time
 * @param processCpuMs          this process's CPU time over it, every thread (the engine's, the JVM's compiler and
 *                              collector, spinning pool threads); null where unknown
 * @param utilisationPercent    {@code processCpuMs} over the wall time times the engine's threads: 2 threads busy the
 *                              whole time gives 100%. Above 100% the JVM's own threads or spinning waits added to it
 * @param otherProcessesCpuMs   the machine's busy time over it less this process's: other processes, the kernel's
 *                              threads; null where {@code /proc/stat} is not readable
 * @param otherProcessesPercent that as a share of every core's wall time: how much of the machine the measurement did
 *                              not have to itself
 * @param topThreads            this process's busiest threads over it, by CPU time, at most {@value #TOP_THREADS}
 */
public record CpuUse(double wallMs, Double processCpuMs, Double utilisationPercent, Double otherProcessesCpuMs,
                     Double otherProcessesPercent, List<ThreadCpu> topThreads) {
    public static final int TOP_THREADS = 4;

    /** A thread by its name ({@code comm}, at most 15 characters on Linux) and its CPU time in ms. */
    public record ThreadCpu(String name, double cpuMs) {
    }
}
