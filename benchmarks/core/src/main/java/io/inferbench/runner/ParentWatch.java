package io.inferbench.runner;

import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * A JVM's watch on the process that started it: a fork JVM's on the sweep's JVM, the sweep's (and the serving JVM's) on
 * Maven's or the sweep's. A {@code kill -9} of the parent runs no shutdown hook, and the child would measure on as an
 * orphan; this daemon thread looks every {@link #CHECK_MS} ms and, once the parent is gone, calls {@code onGone} with its
 * pid, once. What to do then (halt, exit through the hooks) is the caller's.
 */
public final class ParentWatch implements AutoCloseable {
    /** How often the thread looks. */
    static final long CHECK_MS = 500;

    private final Thread thread;
    private volatile boolean closed;

    private ParentWatch(long parentPid, LongConsumer onGone) {
        Optional<ProcessHandle> parent = ProcessHandle.of(parentPid);
        this.thread = new Thread(() -> {
            while (!closed && parent.isPresent() && parent.get().isAlive()) {
                try {
                    Thread.sleep(CHECK_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (!closed) {
                onGone.accept(parentPid);
            }
        }, "inferbench-parent-watch");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Starts watching {@code parentPid}; a parent already gone is reported at the thread's first look.
     *
     * @param parentPid the parent's process id; 0 or less watches nothing
     */
    public static ParentWatch start(long parentPid, LongConsumer onGone) {
        return parentPid > 0 ? new ParentWatch(parentPid, onGone) : null;
    }

    /** Idempotent; nothing is reported after it. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
