package io.inferbench.runner;

import io.inferbench.Text;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.util.ArrayDeque;
import java.util.Locale;

/**
 * A fork JVM's guard against a call that never returns: one daemon thread that checks, twice a second, how long the
 * fork's current piece of work (opening the session, preparing a cell, one unit of it) has gone without progress. When
 * that passes the limit ({@code -Dbench.callTimeoutSeconds}), it hands the caller a {@link Timeout}, whose handler
 * writes the cell's error and halts the JVM: a call that ignores interrupts cannot be stopped any other way, and the
 * sweep measures the fork's other cells in a fresh JVM. The fork's heartbeat ({@link Heartbeat}) and its watch on the
 * sweep's JVM ({@link ParentWatch}) are their own.
 *
 * <p><b>A call filling the heap is not stuck.</b> One whose heap grew by a tenth of its maximum over the limit is given up
 * to {@link #ALLOCATING_GRACE} limits to return or run out of memory, which then fails its cell with the fix; one that
 * times out on a full heap the collector thrashes on is said as out of memory ({@link HeapPressure}).
 *
 * <p><b>Cost.</b> A unit's progress is one volatile write after the unit's clock is read ({@link #progress}): outside
 * every timed region, and a few nanoseconds beside any forward pass. The thread itself sleeps between its checks.
 */
public final class CallWatchdog implements AutoCloseable {
    /** How often the thread looks. */
    static final long CHECK_MS = 500;
    /**
     * How many limits a call that is filling the heap is given before it times out: it is not stuck but allocating, and
     * will return or run out of memory, which says more than a timeout (docs/targets.md has a measure).
     */
    static final long ALLOCATING_GRACE = 3;
    /** The share of the heap a call must have added over the last limit to count as filling it. */
    static final double ALLOCATING_SHARE = 0.10;

    /**
     * What timed out, for the handler: what was running, for how long, where its thread was, and whether the JVM was out
     * of memory meanwhile.
     *
     * @param memory how full the heap was and how much of the limit the JVM spent collecting garbage, where that says
     *               the call was not stuck but out of memory (a full heap the collector thrashes on before it throws);
     *               null otherwise
     */
    public record Timeout(String activity, double limitSeconds, String where, HeapPressure memory) {
        /** The cell's error: what happened, the limit, where the code was, and the fix. */
        public String message() {
            if (memory != null) {
                return String.format(Locale.ROOT, "out of memory in the fork JVM: %s did not return within %s s while the "
                        + "heap was %.0f%% full (of %.1f GiB) and the JVM spent %.0f%% of that time collecting garbage%s. "
                        + "This cell's shape needs more than the JVM's heap: give the forks more (-Dbench.jvmArgs=-Xmx16g), "
                        + "or lower -Dbench.batch or -Dbench.seq; the fork JVM was stopped and the other cells went on in a "
                        + "fresh one", activity, trim(limitSeconds), memory.usedPercent(), memory.maxGib(),
                        memory.gcPercent(), where.isEmpty() ? "" : " (it was at " + where + ")");
            }
            return String.format(Locale.ROOT, "timed out after %s s: %s did not return%s; the fork JVM was stopped and the "
                    + "cell's other work went on in a fresh one. A real call this slow needs a larger "
                    + "-Dbench.callTimeoutSeconds", trim(limitSeconds), activity, where.isEmpty() ? "" : " (it was at " + where + ")");
        }

        private static String trim(double seconds) {
            return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
        }
    }

    /**
     * The heap when a call timed out: how full it was and what share of the limit the collector took. A heap at least
     * {@link #FULL_PERCENT} full with the collector taking at least {@link #THRASHING_PERCENT} of the time is a JVM out
     * of memory that has not thrown yet (G1 collects on, rather than throw, while each collection frees a little).
     */
    public record HeapPressure(double usedPercent, double maxGib, double gcPercent) {
        static final double FULL_PERCENT = 90;
        static final double THRASHING_PERCENT = 50;

        boolean outOfMemory() {
            return usedPercent >= FULL_PERCENT && gcPercent >= THRASHING_PERCENT;
        }
    }

    /** What the watchdog does when the limit passes. */
    @FunctionalInterface
    public interface Handler {
        void timedOut(Timeout timeout);
    }

    /** One look at the JVM: when, the collectors' total time so far, and the heap in use. */
    private record Look(long atNs, long gcMillis, long heapUsedBytes) {
        static Look now() {
            return new Look(System.nanoTime(), CallWatchdog.gcMillis(), MEMORY.getHeapMemoryUsage().getUsed());
        }
    }

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private final long limitNs;
    private final double limitSeconds;
    private final Handler handler;
    private final Thread thread;
    private volatile String activity;
    private volatile Thread worker;
    private volatile long sinceNs;
    private volatile boolean closed;

    /**
     * @param limitSeconds the longest a piece of work may go without progress; 0 or less for no limit (no thread)
     */
    public CallWatchdog(double limitSeconds, Handler handler) {
        this.limitSeconds = limitSeconds;
        this.limitNs = limitSeconds > 0 ? (long) (limitSeconds * 1e9) : Long.MAX_VALUE;
        this.handler = handler;
        this.thread = new Thread(this::watch, "inferbench-call-watchdog");
        this.thread.setDaemon(true);
        if (limitSeconds > 0) {
            this.thread.start();
        } else {
            closed = true;
        }
    }

    /** A watchdog that never fires: a fork run inside a test's own JVM, which nothing may halt. */
    public static CallWatchdog unwatched() {
        return new CallWatchdog(0, null);
    }

    /** Work that may take up to the limit begins on this thread: opening a session, a cell's preparation. */
    public void begin(String what) {
        worker = Thread.currentThread();
        activity = what;
        sinceNs = System.nanoTime();
    }

    /** The work has made progress (a unit ended): its clock starts again. */
    public void progress() {
        sinceNs = System.nanoTime();
    }

    /** The work that began has ended: nothing is watched until the next {@link #begin}. */
    public void end() {
        activity = null;
    }

    private void watch() {
        // Looks over the last limit's worth of time (and two looks more): the oldest is what the heap and the collectors
        // are measured against when a call runs long.
        ArrayDeque<Look> looks = new ArrayDeque<>();
        while (!closed) {
            looks.addLast(Look.now());
            while (looks.size() > 2 && looks.peekFirst().atNs() < System.nanoTime() - limitNs - CHECK_MS * 2_000_000L) {
                looks.removeFirst();
            }
            try {
                Thread.sleep(CHECK_MS);
            } catch (InterruptedException e) {
                return;
            }
            String what = activity;
            long stuckNs = System.nanoTime() - sinceNs;
            if (what != null && stuckNs > limitNs && !closed
                    && !(allocating(looks.peekFirst()) && stuckNs < ALLOCATING_GRACE * limitNs)) {
                handler.timedOut(new Timeout(what, limitSeconds, Text.where(worker), heapPressure(looks.peekFirst())));
                return;
            }
        }
    }

    /** The heap grew by at least {@link #ALLOCATING_SHARE} of its maximum since {@code since}. */
    private static boolean allocating(Look since) {
        MemoryUsage heap = MEMORY.getHeapMemoryUsage();
        return since != null && heap.getMax() > 0 && heap.getUsed() - since.heapUsedBytes() >= ALLOCATING_SHARE * heap.getMax();
    }

    private static long gcMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    /** The heap's state now against {@code since}; null unless it reads as out of memory. */
    private static HeapPressure heapPressure(Look since) {
        MemoryUsage heap = MEMORY.getHeapMemoryUsage();
        if (since == null || heap.getMax() <= 0) {
            return null;
        }
        double wallMs = (System.nanoTime() - since.atNs()) / 1e6;
        HeapPressure pressure = new HeapPressure(100.0 * heap.getUsed() / heap.getMax(), heap.getMax() / (double) (1L << 30),
                wallMs <= 0 ? 0 : Math.min(100, 100 * (gcMillis() - since.gcMillis()) / wallMs));
        return pressure.outOfMemory() ? pressure : null;
    }

    /** Idempotent. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
