package io.inferbench.probe;


import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The JIT's compiler threads of one JVM, and a wait until they are idle. A compile in progress is invisible to the JVM's
 * compile-time counter ({@code CompilationMXBean} grows only when a compile ends), so idleness is read from the threads
 * themselves: their CPU time, the first field of each one's {@code /proc/self/task/TID/schedstat}, stops advancing over
 * {@value #POLL_MS} ms. Where {@code /proc} is not readable (not Linux), nothing waits.
 *
 * <p>A thread is told apart by its {@code comm} ({@code C1 CompilerThre*} or {@code C2 CompilerThre*}), read once and
 * remembered until {@link #forget()}, so that a poll reads the compiler threads' {@code schedstat} and not every thread's
 * name. The threads are listed at every poll: HotSpot starts and stops compiler threads as its queue grows and shrinks.
 * Reads go through {@link ProcFiles}, which stays cheap while this code is still interpreted.
 *
 * <p>Two JVMs wait here: a fork JVM before each measurement ({@code ForegroundJit.awaitIdleCompilers()}), and the sweep's
 * own JVM before it starts a fork JVM, so that what the sweep's preflight left its compilers to do is not done on the
 * machine's cores during the fork's first cell (how busy they were: docs/findings.md, "Compiler threads").
 */
public final class CompilerThreads {
    static final long POLL_MS = 5;
    /** Reads at {@link #prime()}: enough for the read's own code to be compiled. */
    static final int PRIME_READS = 200;
    private static final CompilerThreads THIS_JVM = new CompilerThreads(Path.of("/proc/self/task"));

    private final String tasks;
    private final Map<String, Boolean> compilerByTid = new HashMap<>();

    CompilerThreads(Path tasks) {
        this.tasks = tasks.toString();
    }

    /** This JVM's compiler threads. */
    public static CompilerThreads ofThisJvm() {
        return THIS_JVM;
    }

    /** The compiler threads' CPU time at one moment; {@code cpuNs} -1 where it cannot be read. */
    public record Reading(long cpuNs, long atNs) {
    }

    /** Reads their CPU time now, looking at every thread's name again first (a new cell, a new set of threads). */
    public Reading read() {
        forget();
        return new Reading(cpuNs(), System.nanoTime());
    }

    /**
     * Reads their time {@value #PRIME_READS} times, so that the code of the read (directory listing, file reads) is
     * compiled now, in the background, and not in the foreground of the first wait (docs/findings.md, "Compiler
     * threads"). Once per JVM, before its first wait.
     */
    public void prime() {
        for (int i = 0; i < PRIME_READS; i++) {
            cpuNs();
        }
    }

    /**
     * Waits until their CPU time stops advancing over one poll of {@value #POLL_MS} ms, at most {@code capMs}; returns
     * the wait in ms. Given a {@code since} reading (or null), the first poll counts from it, so time already passed
     * since then is not waited again.
     */
    public double awaitIdle(Reading since, long capMs) {
        return awaitIdle(since, POLL_MS, capMs);
    }

    double awaitIdle(Reading since, long pollMs, long capMs) {
        long start = System.nanoTime();
        boolean fromSince = since != null && since.cpuNs() >= 0;
        long last = fromSince ? since.cpuNs() : cpuNs();
        long lastAt = fromSince ? since.atNs() : start;
        if (last < 0) {
            return 0;
        }
        long pollNs = pollMs * 1_000_000;
        while ((System.nanoTime() - start) / 1_000_000 < capMs) {
            long sleepNs = pollNs - (System.nanoTime() - lastAt);
            if (sleepNs > 0) {
                try {
                    Thread.sleep(sleepNs / 1_000_000, (int) (sleepNs % 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            long now = cpuNs();
            long at = System.nanoTime();
            if (now == last) {
                break;
            }
            last = now;
            lastAt = at;
        }
        return (System.nanoTime() - start) / 1e6;
    }

    /** Their CPU time so far, in ns; -1 where the threads cannot be listed. */
    synchronized long cpuNs() {
        String[] tids = ProcFiles.list(tasks);
        if (tids == null) {
            return -1;
        }
        long sum = 0;
        for (String tid : tids) {
            Boolean compiler = compilerByTid.get(tid);
            if (compiler == null) {
                String comm = ProcFiles.read(tasks + "/" + tid + "/comm");
                if (comm == null) {
                    continue; // a thread that ended between the listing and the read
                }
                compiler = comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre");
                compilerByTid.put(tid, compiler);
            }
            if (compiler) {
                String stat = ProcFiles.read(tasks + "/" + tid + "/schedstat");
                if (stat == null) {
                    compilerByTid.remove(tid); // it ended: no compile of its own to wait for
                    continue;
                }
                try {
                    sum += Long.parseLong(ProcFiles.fields(stat).get(0));
                } catch (RuntimeException e) {
                    compilerByTid.remove(tid);
                }
            }
        }
        return sum;
    }

    /** Forgets which threads are compilers: the next read looks at every thread's name again. */
    synchronized void forget() {
        compilerByTid.clear();
    }
}
