package io.inferbench.probe;

/**
 * The {@link Probe} named {@code gc}: the JVM's garbage collections that began and ended within a window
 * ({@link GcPauses}, from the collectors' notifications, which arrive on a JMX thread: reading them costs the measuring
 * thread a copy of the few kept). Null where the JVM sends no notifications.
 */
public final class GcProbe implements Probe<GcPauses.Summary> {
    public static final String NAME = "gc";

    /** Registers with the collectors now, when the probes are loaded (before a fork's session), not at a first window. */
    public GcProbe() {
        GcPauses.instance();
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Its own {@link System#nanoTime()}: the notifications are stamped on that clock, whatever clock the window is on. */
    @Override
    public Object start() {
        GcPauses.instance();
        return System.nanoTime();
    }

    @Override
    public GcPauses.Summary stop(Object started, Window window) {
        GcPauses gc = GcPauses.instance();
        return gc.listening() ? gc.between((Long) started, System.nanoTime()) : null;
    }
}
