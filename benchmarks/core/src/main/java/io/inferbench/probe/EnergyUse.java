package io.inferbench.probe;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The energy of one cell's measured passes in one fork, where the machine reports it, and why not where it does not:
 * never an estimate in its place.
 *
 * <p>On the CPU the source is RAPL through Linux's powercap ({@code /sys/class/powercap/intel-rapl:N/energy_uj}, one
 * counter per CPU package in microjoules, which AMD parts expose under the same name): read before and after the
 * measured passes, the packages summed, a counter that wrapped corrected by its {@code max_energy_range_uj}. It counts
 * the whole package, other processes included, so {@code otherProcessesPercent} in {@link CpuUse} says how much of it
 * was theirs. Since Linux 5.10 the counters are readable by root only; a virtual machine usually has none.
 *
 * @param figures     the energy and what it comes to, written flat in run.json; {@link Figures#NONE} when not available
 * @param source      where it was read
 * @param unavailable why there is no figure, or null
 */
public record EnergyUse(@JsonUnwrapped Figures figures, String source, String unavailable) {

    /** The figures are never null (an absent group reads back as every field null). */
    public EnergyUse {
        figures = figures == null ? Figures.NONE : figures;
    }

    /**
     * @param joules               energy over the measured passes; null when not available
     * @param meanWatts            that over the measurement's wall time
     * @param joulesPerPass        per measured pass
     * @param joulesPer1000Samples per 1,000 samples (pass times batch / 1,000)
     */
    public record Figures(Double joules, Double meanWatts, Double joulesPerPass, Double joulesPer1000Samples) {
        public static final Figures NONE = new Figures(null, null, null, null);
    }

    static EnergyUse unavailable(String source, String why) {
        return new EnergyUse(Figures.NONE, source, why);
    }

    public Double joules() {
        return figures.joules();
    }

    public Double meanWatts() {
        return figures.meanWatts();
    }

    public Double joulesPerPass() {
        return figures.joulesPerPass();
    }

    public Double joulesPer1000Samples() {
        return figures.joulesPer1000Samples();
    }

    /** RAPL's package counters under a powercap folder: the {@link Probe} named {@code energy}. */
    public record Rapl(Path powercap) implements Probe<EnergyUse> {
        public static final String NAME = "energy";

        /** This machine's, {@code /sys/class/powercap}. */
        public Rapl() {
            this(Path.of("/sys/class/powercap"));
        }

        public static Rapl system() {
            return new Rapl();
        }

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Object start() {
            return read();
        }

        @Override
        public EnergyUse stop(Object started, Window window) {
            return between((Reading) started, read(), window.wallMs(), window.passes(), window.samplesPerPass());
        }

        /** The package domains ({@code intel-rapl:N}, not their sub-domains {@code intel-rapl:N:M}). */
        List<Path> packages() throws IOException {
            List<Path> domains = new ArrayList<>();
            if (!Files.isDirectory(powercap)) {
                return domains;
            }
            try (DirectoryStream<Path> dir = Files.newDirectoryStream(powercap, "intel-rapl:*")) {
                for (Path d : dir) {
                    if (d.getFileName().toString().matches("intel-rapl:\\d+")) {
                        domains.add(d);
                    }
                }
            }
            domains.sort(null);
            return domains;
        }

        /** Every package's counter in microjoules, or (null counters) why there is none. */
        public record Reading(long[] microjoules, String unavailable) {
            static Reading of(String why) {
                return new Reading(null, why);
            }
        }

        public Reading read() {
            try {
                List<Path> domains = packages();
                if (domains.isEmpty()) {
                    return Reading.of("no RAPL package domain under " + powercap
                            + " (a virtual machine, or no powercap driver for this CPU)");
                }
                long[] uj = new long[domains.size()];
                for (int i = 0; i < uj.length; i++) {
                    uj[i] = Long.parseLong(Files.readString(domains.get(i).resolve("energy_uj")).trim());
                }
                return new Reading(uj, null);
            } catch (java.nio.file.AccessDeniedException e) {
                return Reading.of("RAPL counters under " + powercap + " are not readable by this user (root only since "
                        + "Linux 5.10): " + e.getFile());
            } catch (IOException | RuntimeException e) {
                return Reading.of("RAPL counters under " + powercap + " could not be read: " + e);
            }
        }

        /** The energy between two readings over {@code wallMs}, for {@code passes} passes of {@code batch} samples. */
        public EnergyUse between(Reading before, Reading after, double wallMs, long passes, int batch) {
            String source = "RAPL package counters (" + powercap + "), whole packages";
            long[] b = before.microjoules();
            long[] a = after.microjoules();
            if (b == null || a == null || a.length != b.length) {
                return unavailable(source, before.unavailable() != null ? before.unavailable() : after.unavailable() != null
                        ? after.unavailable() : "the RAPL domains changed during the measurement");
            }
            double uj = 0;
            try {
                List<Path> domains = packages();
                for (int i = 0; i < a.length; i++) {
                    long delta = a[i] - b[i];
                    if (delta < 0) { // the counter wrapped once
                        delta += Long.parseLong(Files.readString(domains.get(i).resolve("max_energy_range_uj")).trim());
                    }
                    uj += delta;
                }
            } catch (IOException | RuntimeException e) {
                return unavailable(source, "a RAPL counter wrapped and its range could not be read: " + e);
            }
            double joules = uj / 1e6;
            return new EnergyUse(new Figures(joules, wallMs > 0 ? joules / (wallMs / 1e3) : null,
                    passes > 0 ? joules / passes : null, passes > 0 ? joules / (passes * (double) batch) * 1000 : null),
                    source, null);
        }
    }
}
