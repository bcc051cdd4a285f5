package io.inferbench.runner;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A fork JVM's guard against a call that never returns: one daemon thread that checks, twice a second, how long the
 * fork's current piece of work (opening the session, preparing a cell, one unit of it) has gone without progress. When
 * that passes the limit ({@code -Dbench.callTimeoutSeconds}), it hands the caller a {@link Timeout}, whose handler
 * writes the cell's error and halts the JVM: a call that ignores interrupts cannot be stopped any other way, and the
 * sweep measures the fork's other cells in a fresh JVM.
 *
 * <p><b>Cost.</b> A unit's progress is one volatile write after the unit's clock is read ({@link #progress}): outside
 * every timed region, and a few nanoseconds beside any forward pass. The thread itself sleeps between its checks.
 *
 * <p>Also the fork's watch on its parent: when the sweep's JVM is gone (killed, even with {@code kill -9}, which runs
 * no shutdown hook), the fork halts within a second instead of measuring on as an orphan.
 */
public final class CallWatchdog implements AutoCloseable {
    /** How often the thread looks. */
    static final long CHECK_MS = 500;
    /** How often it prints the heartbeat ({@link ForkEvent#ALIVE}) that tells the sweep the JVM is not stuck. */
    static final long HEARTBEAT_MS = 2000;

    /** What timed out, for the handler: what was running, for how long, and where its thread was. */
    public record Timeout(String activity, double limitSeconds, String where) {
        /** The cell's error: what happened, the limit, where the code was, and the fix. */
        public String message() {
            return String.format(Locale.ROOT, "timed out after %s s: %s did not return%s; the fork JVM was stopped and the "
                    + "cell's other work went on in a fresh one. A real call this slow needs a larger "
                    + "-Dbench.callTimeoutSeconds", trim(limitSeconds), activity, where.isEmpty() ? "" : " (it was at " + where + ")");
        }

        private static String trim(double seconds) {
            return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
        }
    }

    /** What the watchdog does when the limit passes, or the parent is gone. */
    public interface Handler {
        void timedOut(Timeout timeout);

        void parentGone(long parentPid);
    }

    private final long limitNs;
    private final double limitSeconds;
    private final ProcessHandle parent;
    private final Handler handler;
    private final Runnable heartbeat;
    private final Thread thread;
    private volatile String activity;
    private volatile Thread worker;
    private volatile long sinceNs;
    private volatile boolean closed;

    /**
     * @param limitSeconds the longest a piece of work may go without progress; 0 or less for no limit (the parent is
     *                     still watched)
     * @param parentPid    the sweep's JVM, or -1 to watch none
     */
    public CallWatchdog(double limitSeconds, long parentPid, Handler handler) {
        this(limitSeconds, parentPid, handler, () -> {
            System.out.println(ForkEvent.ALIVE);
            System.out.flush();
        }, true);
    }

    /** With its own heartbeat, for a test. */
    CallWatchdog(double limitSeconds, long parentPid, Handler handler, Runnable heartbeat) {
        this(limitSeconds, parentPid, handler, heartbeat, true);
    }

    /** A watchdog that never fires: a fork run inside a test's own JVM, which nothing may halt. */
    public static CallWatchdog unwatched() {
        return new CallWatchdog(0, -1, null, () -> { }, false);
    }

    private CallWatchdog(double limitSeconds, long parentPid, Handler handler, Runnable heartbeat, boolean start) {
        this.limitSeconds = limitSeconds;
        this.heartbeat = heartbeat;
        this.limitNs = limitSeconds > 0 ? (long) (limitSeconds * 1e9) : Long.MAX_VALUE;
        this.parent = parentPid > 0 ? ProcessHandle.of(parentPid).orElse(null) : null;
        this.handler = handler;
        this.thread = new Thread(this::watch, "inferbench-call-watchdog");
        this.thread.setDaemon(true);
        if (!start) {
            closed = true;
            return;
        }
        if (parentPid > 0 && parent == null) {
            // The parent was gone before the fork got this far.
            handler.parentGone(parentPid);
        }
        this.thread.start();
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
        long lastBeatNs = System.nanoTime();
        while (!closed) {
            try {
                Thread.sleep(CHECK_MS);
            } catch (InterruptedException e) {
                return;
            }
            if (System.nanoTime() - lastBeatNs >= HEARTBEAT_MS * 1_000_000L) {
                lastBeatNs = System.nanoTime();
                heartbeat.run();
            }
            if (parent != null && !parent.isAlive()) {
                handler.parentGone(parent.pid());
                return;
            }
            String what = activity;
            if (what != null && System.nanoTime() - sinceNs > limitNs && !closed) {
                handler.timedOut(new Timeout(what, limitSeconds, where(worker)));
                return;
            }
        }
    }

    /** The first frames of the stuck thread, outside the JDK and the harness where there are any. */
    static String where(Thread thread) {
        if (thread == null) {
            return "";
        }
        StackTraceElement[] stack = thread.getStackTrace();
        StackTraceElement[] own = Arrays.stream(stack).filter(f -> !f.getClassName().startsWith("java.")
                && !f.getClassName().startsWith("jdk.") && !f.getClassName().startsWith("io.inferbench.")
                && !f.getClassName().startsWith("sun.")).toArray(StackTraceElement[]::new);
        StackTraceElement[] shown = own.length > 0 ? own : stack;
        return Arrays.stream(shown).limit(3).map(StackTraceElement::toString).collect(Collectors.joining(" < "));
    }

    /** Idempotent. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
