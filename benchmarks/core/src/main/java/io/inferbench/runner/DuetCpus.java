package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.probe.CpuProbe;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * An A/B duet's two halves of the cores this process may run on: A's fork JVM pinned to one half and B's to the other
 * ({@code taskset -c}), so that both run at the same time without taking each other's cores. Which half is B's is drawn
 * per pair ({@link #assign}), so that a core that serves the machine's interrupts, or a slower core, is not always one
 * subject's. Both forks read only their own cores' busy time as the machine's ({@code CpuProbe}), so the other half's
 * fork is not counted as other processes on theirs.
 */
public final class DuetCpus {
    private final List<Integer> first;
    private final List<Integer> second;
    private volatile boolean bOnFirst;

    DuetCpus(List<Integer> cpus) {
        if (cpus.size() < 2) {
            throw new BenchmarkException("-Dbench.ab.mode=duet runs A and B at the same time, each on its own half of the "
                    + "cores, and this process may run on " + cpus.size() + " core(s) (" + list(cpus) + "): run it where "
                    + "it has 2 or more, or use -Dbench.ab.mode=forks");
        }
        int half = cpus.size() / 2;
        this.first = List.copyOf(cpus.subList(0, half));
        this.second = List.copyOf(cpus.subList(half, 2 * half));
    }

    /**
     * The halves of this process's cores, checked before anything is measured: at least 2 cores, and {@code taskset}
     * found and working.
     */
    public static DuetCpus ofThisProcess() {
        Set<Integer> allowed = CpuProbe.allowedCpusOfThisProcess();
        List<Integer> cpus = allowed == null ? List.of() : new ArrayList<>(allowed);
        if (allowed == null) {
            throw new BenchmarkException("-Dbench.ab.mode=duet pins A's and B's fork JVMs to halves of the cores, and this "
                    + "machine does not say which cores this process may use (/proc/self/status, Linux only): use "
                    + "-Dbench.ab.mode=forks");
        }
        DuetCpus duet = new DuetCpus(cpus);
        String failure = tasksetFailure(duet.first);
        if (failure != null) {
            throw new BenchmarkException("-Dbench.ab.mode=duet pins each fork JVM with taskset, which " + failure + ": "
                    + "install util-linux (it holds taskset), or use -Dbench.ab.mode=forks");
        }
        return duet;
    }

    private static String tasksetFailure(List<Integer> cpus) {
        try {
            Process p = new ProcessBuilder("taskset", "-c", list(cpus), "true").redirectErrorStream(true).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "did not end within 10 s";
            }
            String said = new String(p.getInputStream().readAllBytes()).trim();
            return p.exitValue() == 0 ? null : "exited " + p.exitValue() + (said.isEmpty() ? "" : " (" + said + ")");
        } catch (IOException e) {
            return "could not be started (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "was interrupted";
        }
    }

    /** Draws which half is B's for the next pair: the first when {@code bOnFirst}. */
    public void assign(boolean bOnFirst) {
        this.bOnFirst = bOnFirst;
    }

    /** A's cores for the pair now assigned, as {@code taskset -c} takes them. */
    public String a() {
        return list(bOnFirst ? second : first);
    }

    /** B's cores for the pair now assigned. */
    public String b() {
        return list(bOnFirst ? first : second);
    }

    /** How many cores each half has: each fork's intra-op threads at most. */
    public int halfSize() {
        return first.size();
    }

    static String list(List<Integer> cpus) {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
