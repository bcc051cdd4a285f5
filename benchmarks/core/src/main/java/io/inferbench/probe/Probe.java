package io.inferbench.probe;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Something read around a measured window, the way a JMH profiler is: before a cell's measured passes and after them
 * (in each fork), and before and after a serving point. A probe is found by name through {@link ServiceLoader}: a new
 * one is a class implementing this with a public no-argument constructor and one line in
 * {@code META-INF/services/io.inferbench.probe.Probe}. What it read goes into run.json under its name
 * ({@code measurement.probes.NAME}, {@code resources.probes.NAME} of a serving point), beside the built-in readings.
 *
 * <p><b>Hazard: it runs beside the timed passes.</b> {@link #start} and {@link #stop} run just outside the timed region,
 * but on the measuring thread: each must take microseconds (read a counter, never sleep, never start a process), and
 * allocate little, or the next pass pays for it. Nothing runs while the passes do; a probe that must sample meanwhile
 * is not this interface's kind (the GPU sampler runs its own process).
 */
public interface Probe {
    /** Its name in run.json: lower camel case, one word. */
    String name();

    /** What it counts now, at the start of a window: any value {@link #stop} understands, or null where it cannot read. */
    Object start();

    /** What it counted over the window that began at {@code started}. */
    ProbeReading stop(Object started, Window window);

    /**
     * The window read.
     *
     * @param wallMs         its wall time
     * @param passes         the passes (or requests) it held; 0 where none
     * @param samplesPerPass the samples each pass carried (its batch), so a figure can be per sample
     */
    record Window(double wallMs, long passes, int samplesPerPass) {
    }

    /** Every probe of this build, in the order of the service files' lines. */
    static List<Probe> all() {
        return Registry.ALL;
    }

    /** Starts every probe: what each read, by name, for {@link #stopAll}. */
    static Map<Probe, Object> startAll(List<Probe> probes) {
        Map<Probe, Object> started = new LinkedHashMap<>();
        probes.forEach(p -> started.put(p, p.start()));
        return started;
    }

    /** What each started probe counted over {@code window}, by name; null when there are no probes. */
    static Map<String, ProbeReading> stopAll(Map<Probe, Object> started, Window window) {
        if (started.isEmpty()) {
            return null;
        }
        Map<String, ProbeReading> read = new LinkedHashMap<>();
        started.forEach((probe, start) -> read.put(probe.name(), probe.stop(start, window)));
        return read;
    }

    /** Loaded once per JVM. */
    final class Registry {
        private static final List<Probe> ALL = load();

        private Registry() {
        }

        private static List<Probe> load() {
            List<Probe> probes = new java.util.ArrayList<>();
            ServiceLoader.load(Probe.class, Probe.class.getClassLoader()).forEach(probes::add);
            return List.copyOf(probes);
        }
    }
}
