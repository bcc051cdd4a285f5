package io.inferbench.probe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Something read around a measured window, the way a JMH profiler is: before a cell's measured passes and after them
 * (in each fork), and before and after a serving point. Every reading of the harness is one: where the CPU went
 * ({@link CpuTime}, {@code cpu}), RAPL's energy ({@link EnergyUse.Rapl}, {@code energy}), the JVM's collections
 * ({@link GcProbe}, {@code gc}), the page faults ({@link PageFaults}, {@code pageFaults}) and, on CUDA, what nvidia-smi
 * sampled ({@link GpuSampler}, {@code gpu}). A probe is found by name through {@link ServiceLoader}: a new one is a
 * class implementing this with a public no-argument constructor and one line in
 * {@code META-INF/services/io.inferbench.probe.Probe}. The GPU sampler is the one exception: it needs the device and
 * runs an nvidia-smi process for the fork's life, so the fork JVM adds it on CUDA.
 *
 * <p><b>Where a reading lands.</b> The built-in names have typed places in run.json ({@code measurement.cpu},
 * {@code measurement.energy}, {@code measurement.gc}, {@code measurement.gpu}, and the same under a serving point's
 * {@code resources}), because the rules and the reports read them. Any other probe returns a {@link ProbeReading}, which
 * lands under its name in {@code measurement.probes.NAME} and {@code resources.probes.NAME}: no file of the harness
 * changes to add one.
 *
 * <p><b>Hazard: it runs beside the timed passes.</b> {@link #start} and {@link #stop} run just outside the timed region,
 * but on the measuring thread: each must take microseconds (read a counter, never sleep, never start a process), and
 * allocate little, or the next pass pays for it. Nothing runs while the passes do. The GPU sampler's {@code stop} may wait
 * for nvidia-smi's next sample, so it is always stopped last, after every other reading is taken.
 *
 * @param <R> what it reads over a window: {@link ProbeReading} for a probe of one's own
 */
public interface Probe<R> {
    /** Its name in run.json: lower camel case, one word. */
    String name();

    /** What it counts now, at the start of a window: any value {@link #stop} understands, or null where it cannot read. */
    Object start();

    /** What it counted over the window that began at {@code started}; null where it read nothing worth keeping. */
    R stop(Object started, Window window);

    /**
     * The window read.
     *
     * @param startNs        when it began, on the measuring clock ({@link System#nanoTime()} in a run)
     * @param endNs          when it ended, on the same clock
     * @param passes         the passes (or completed requests) it held; 0 where none
     * @param samplesPerPass the samples each pass carried (its batch), so a figure can be per sample
     * @param threads        the threads the measured work was given (the engine's intra-op threads for a cell, every
     *                       core for a serving point), so a use can be a share of them
     */
    record Window(long startNs, long endNs, long passes, int samplesPerPass, int threads) {
        public double wallMs() {
            return (endNs - startNs) / 1e6;
        }
    }

    /**
     * Every probe of this build found through its service files, in the order of their lines; refused, with both class
     * names, where two share a name.
     */
    static List<Probe<?>> all() {
        return Registry.all();
    }

    /** {@code probes}, with each of {@code replacements} in place of the probe of the same name (added where none). */
    static List<Probe<?>> replacing(List<Probe<?>> probes, Probe<?>... replacements) {
        List<Probe<?>> out = new ArrayList<>(probes);
        for (Probe<?> replacement : replacements) {
            int at = -1;
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).name().equals(replacement.name())) {
                    at = i;
                }
            }
            if (at >= 0) {
                out.set(at, replacement);
            } else {
                out.add(replacement);
            }
        }
        return List.copyOf(out);
    }

    /** Starts every probe, in order: what each read, for {@link #stopAll}. */
    static Map<Probe<?>, Object> startAll(List<Probe<?>> probes) {
        Map<Probe<?>, Object> started = new LinkedHashMap<>();
        probes.forEach(p -> started.put(p, p.start()));
        return started;
    }

    /** What each started probe counted over {@code window}, stopped in the order they were started. */
    static Readings stopAll(Map<Probe<?>, Object> started, Window window) {
        Map<String, Object> read = new LinkedHashMap<>();
        started.forEach((probe, start) -> {
            Object reading = probe.stop(start, window);
            if (reading != null) {
                read.put(probe.name(), reading);
            }
        });
        return new Readings(read);
    }

    /** What the probes read over one window, by name. */
    final class Readings {
        /** Nothing read. */
        public static final Readings NONE = new Readings(Map.of());

        private final Map<String, Object> byName;

        Readings(Map<String, Object> byName) {
            this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
        }

        /** The reading of the probe named {@code name}, where it read a {@code type}; null otherwise. */
        public <T> T get(String name, Class<T> type) {
            Object reading = byName.get(name);
            return type.isInstance(reading) ? type.cast(reading) : null;
        }

        /** The probes of one's own: every {@link ProbeReading}, by name; null where there is none. */
        public Map<String, ProbeReading> figures() {
            Map<String, ProbeReading> figures = new LinkedHashMap<>();
            byName.forEach((name, reading) -> {
                if (reading instanceof ProbeReading r) {
                    figures.put(name, r);
                }
            });
            return figures.isEmpty() ? null : figures;
        }
    }

    /** Loaded once per JVM, on first use. */
    final class Registry {
        private static List<Probe<?>> all;

        private Registry() {
        }

        static synchronized List<Probe<?>> all() {
            if (all == null) {
                all = load();
            }
            return all;
        }

        private static List<Probe<?>> load() {
            List<Probe<?>> probes = new ArrayList<>();
            ServiceLoader.load(Probe.class, Probe.class.getClassLoader()).forEach(probes::add);
            return unique(probes);
        }

        /** {@code probes}, refused where two share a name: their readings would land in one place. */
        static List<Probe<?>> unique(List<Probe<?>> probes) {
            Map<String, Probe<?>> byName = new LinkedHashMap<>();
            for (Probe<?> probe : probes) {
                Probe<?> before = byName.putIfAbsent(probe.name(), probe);
                if (before != null) {
                    throw new io.inferbench.BenchmarkException("Two probes are named '" + probe.name() + "': "
                            + before.getClass().getName() + " and " + probe.getClass().getName() + " (each listed in a "
                            + "META-INF/services/io.inferbench.probe.Probe file). A probe's name is its place in run.json; "
                            + "rename one of them, or remove its line from the service file");
                }
            }
            return List.copyOf(probes);
        }
    }
}
