package io.inferbench.serve;

import io.inferbench.Text;

import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The serving JVM's guard against a call into the served code that never returns, as {@code CallWatchdog} is a fork's:
 * each runner of a served session ({@link SessionExecutor}) holds a {@link Slot}, marked busy for each call, and one
 * daemon thread looks every {@value #CHECK_MS} ms. A slot busy in the same call for longer than the limit
 * ({@code -Dbench.callTimeoutSeconds}) is handed to the handler, which says where the call was and halts the JVM: a call
 * that ignores interrupts cannot be stopped any other way.
 *
 * <p>Installed only in a JVM that serves a target apart from the run ({@code ServingFork}); elsewhere {@link #slot()} is
 * null and a call pays one null check.
 *
 * <p><b>Cost.</b> No clock on the call's path: marking a call is a volatile counter and a volatile field written,
 * inside the timed region of a served request but a few nanoseconds beside any call. The thread measures how long a
 * call has been in progress by seeing it, call count unchanged, at its own checks.
 */
public final class ServedCallWatch implements AutoCloseable {
    /** How often the thread looks. */
    static final long CHECK_MS = 250;

    private static volatile ServedCallWatch installed;

    private final long limitNs;
    private final double limitSeconds;
    private final Consumer<String> timedOut;
    private final List<Slot> slots = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean closed;

    private ServedCallWatch(double limitSeconds, Consumer<String> timedOut) {
        this.limitSeconds = limitSeconds;
        this.limitNs = (long) (limitSeconds * 1e9);
        this.timedOut = timedOut;
        this.thread = new Thread(this::watch, "inferbench-served-call-watch");
        this.thread.setDaemon(true);
    }

    /**
     * Watches every served call made in this JVM from now on.
     *
     * @param limitSeconds the longest one call may take; more than 0
     * @param timedOut     given the message when a call passes it: say it and end the JVM
     */
    public static ServedCallWatch install(double limitSeconds, Consumer<String> timedOut) {
        if (!(limitSeconds > 0)) {
            throw new IllegalArgumentException("a served call's limit must be more than 0 s: " + limitSeconds);
        }
        ServedCallWatch watch = new ServedCallWatch(limitSeconds, timedOut);
        installed = watch;
        watch.thread.start();
        return watch;
    }

    /** A slot for one runner's calls, or null when no watch is installed. */
    static Slot slot() {
        ServedCallWatch watch = installed;
        if (watch == null || watch.closed) {
            return null;
        }
        Slot slot = new Slot(watch);
        watch.slots.add(slot);
        return slot;
    }

    /** Runs {@code call} (opening or closing a served session) in a slot of its own, watched as a served call is. */
    public static <T> T watched(String what, java.util.concurrent.Callable<T> call) throws Exception {
        Slot slot = slot();
        if (slot == null) {
            return call.call();
        }
        slot.begin(what);
        try {
            return call.call();
        } finally {
            slot.end();
            slot.close();
        }
    }

    /** One runner's calls: begun and ended on the thread that makes them. */
    static final class Slot implements AutoCloseable {
        private final ServedCallWatch watch;
        private volatile long calls;
        private volatile String activity;
        private volatile Thread caller;

        private Slot(ServedCallWatch watch) {
            this.watch = watch;
        }

        void begin(String what) {
            caller = Thread.currentThread();
            activity = what;
            calls++; // one writer: the runner's own thread
        }

        void end() {
            activity = null;
        }

        @Override
        public void close() {
            watch.slots.remove(this);
        }
    }

    /** What the thread last saw of a busy slot: its call count, and since when it has seen that call. */
    private record Seen(long calls, long sinceNs) {
    }

    private void watch() {
        Map<Slot, Seen> seen = new WeakHashMap<>();
        while (!closed) {
            try {
                Thread.sleep(CHECK_MS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Slot slot : slots) {
                String what = slot.activity;
                long calls = slot.calls;
                Seen before = seen.get(slot);
                if (what == null) {
                    seen.remove(slot);
                } else if (before == null || before.calls() != calls) {
                    seen.put(slot, new Seen(calls, now));
                } else if (now - before.sinceNs() > limitNs && !closed) {
                    timedOut.accept(message(what, Text.where(slot.caller)));
                    closed = true;
                    return;
                }
            }
        }
    }

    private String message(String what, String where) {
        return "timed out after " + Text.plain(limitSeconds) + " s while serving: the target's " + what + " did not return"
                + (where.isEmpty() ? "" : " (it was at " + where + ")") + "; the serving JVM was stopped, and the points "
                + "served before it are kept. A real call this slow needs a larger -Dbench.callTimeoutSeconds";
    }

    /** Idempotent. */
    @Override
    public void close() {
        closed = true;
        if (installed == this) {
            installed = null;
        }
        thread.interrupt();
    }
}
