package io.inferbench.runner;

/**
 * A fork JVM's sign of life: {@link ForkEvent#ALIVE} on standard output every {@link #EVERY_MS} ms from a daemon
 * thread, which the sweep's silence limit ({@link JvmForkExecutor}) listens for. A JVM so stuck that this thread cannot
 * print is one no watchdog inside it can help, and the sweep kills it.
 */
public final class Heartbeat implements AutoCloseable {
    /** How often it beats. */
    static final long EVERY_MS = 2000;

    private final Thread thread;

    /** Beats on standard output. */
    public Heartbeat() {
        this(() -> {
            System.out.println(ForkEvent.ALIVE);
            System.out.flush();
        }, EVERY_MS);
    }

    /** With its own beat and pace, for a test. */
    Heartbeat(Runnable beat, long everyMs) {
        this.thread = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(everyMs);
                } catch (InterruptedException e) {
                    return;
                }
                beat.run();
            }
        }, "inferbench-heartbeat");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Idempotent. */
    @Override
    public void close() {
        thread.interrupt();
    }
}
