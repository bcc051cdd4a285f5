package io.inferbench.profile;

import io.inferbench.Text;
import io.inferbench.backend.Backends;
import io.inferbench.backend.Device;
import io.inferbench.backend.EnginePeaks;
import io.inferbench.results.Json;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This machine's peaks, once per machine, engine, device and thread count: measured with the engine itself
 * ({@link io.inferbench.backend.InferenceBackend#calibrate}, about 3 s), then cached as JSON under the cache folder,
 * keyed by the CPU model (or GPU), the engine's version, the device and the threads. Every run re-checks cached peaks
 * with the same measures at {@value #CHECK_SECONDS} s each; a check that beats them by more than 10% means they were
 * taken on a busy machine, so it calibrates again and keeps the best of the three; the note records the check. A cache folder that cannot be
 * written does not stop anything: the calibration runs uncached, and its note says so.
 */
public final class Calibrations {
    private Calibrations() {
    }

    /**
     * What the measures are: a cache written by another set of measures (before the integer and float16 roofs, 2) is
     * measured again rather than read with roofs missing.
     */
    static final int MEASURES = 2;

    /** What goes into the cache key: anything that changes the peaks, and the set of measures. */
    record Key(String backend, String engineVersion, String device, int intraOpThreads, int interOpThreads, String hardware,
               int measures) {
        Key(String backend, String engineVersion, String device, int intraOpThreads, int interOpThreads, String hardware) {
            this(backend, engineVersion, device, intraOpThreads, interOpThreads, hardware, MEASURES);
        }

        String fileName() {
            return "calibration-" + backend + "-" + device.replace(':', '_') + "-t" + intraOpThreads + "x" + interOpThreads + "-"
                    + Integer.toHexString(Math.abs((engineVersion + "|" + hardware + "|" + measures).hashCode())) + ".json";
        }
    }

    /** A cache entry: its key, so a hash collision is caught, and the peaks. */
    record Cached(Key key, EnginePeaks peaks) {
    }

    public static ProfileResult.Calibration measureOrRead(String backend, String device, int intraOpThreads, int interOpThreads,
                                                          String hardware, Path cacheDir, Path djlCacheDir) {
        var engine = Backends.create(backend, djlCacheDir);
        Key key = new Key(backend, engine.engineVersion(), device, intraOpThreads, interOpThreads, hardware);
        Path file = cacheDir.resolve(key.fileName());
        EnginePeaks peaks = null;
        String note;
        if (Files.isRegularFile(file)) {
            try {
                Cached cached = Json.mapper().readValue(file.toFile(), Cached.class);
                if (key.equals(cached.key())) {
                    peaks = cached.peaks();
                }
            } catch (IOException e) {
                peaks = null; // unreadable: measure again and rewrite it
            }
        }
        if (peaks != null) {
            // A calibration taken while the machine was busy would judge every later run: re-check it, briefly.
            EnginePeaks check = engine.calibrate(Device.parse(device), intraOpThreads, interOpThreads, CHECK_SECONDS);
            String checked = Text.f("re-checked now (%s s per measure): %.1f GFLOP/s, %.1f GB/s%s against the cached %.1f and %.1f%s",
                    Text.plain(CHECK_SECONDS), check.flopsPerSecond() / 1e9, check.bytesPerSecond() / 1e9, others(check),
                    peaks.flopsPerSecond() / 1e9, peaks.bytesPerSecond() / 1e9, others(peaks));
            if (beats(check, peaks)) {
                EnginePeaks fresh = engine.calibrate(Device.parse(device), intraOpThreads, interOpThreads);
                peaks = best(peaks, best(fresh, check));
                note = "the cache " + file + " was " + checked + ", beaten by more than " + Text.f("%.0f%%", 100 * RECHECK_MARGIN)
                        + ": calibrated again, the best of the three kept; " + write(file, new Cached(key, peaks));
            } else {
                note = "read from the cache " + file + "; " + checked + ", within " + Text.f("%.0f%%", 100 * RECHECK_MARGIN);
            }
        } else {
            peaks = engine.calibrate(Device.parse(device), intraOpThreads, interOpThreads);
            note = write(file, new Cached(key, peaks));
        }
        return new ProfileResult.Calibration(backend, device, intraOpThreads, peaks.flopsPerSecond(), peaks.bytesPerSecond(),
                peaks.callFloorMs(), peaks.flopsPerSecond() / peaks.bytesPerSecond(), peaks.integerOpsPerSecond(),
                peaks.halfFlopsPerSecond(), peaks.method(), note, null);
    }

    /** How long each measure of the re-check of cached peaks runs. */
    static final double CHECK_SECONDS = 0.2;
    /** A re-check that beats a cached peak by more than this share recalibrates. */
    static final double RECHECK_MARGIN = 0.10;

    /** Whether a check beat the cached peaks by more than the margin, on any roof: the cache was taken on a busy machine. */
    static boolean beats(EnginePeaks check, EnginePeaks cached) {
        return beats(check.flopsPerSecond(), cached.flopsPerSecond()) || beats(check.bytesPerSecond(), cached.bytesPerSecond())
                || beats(check.integerOpsPerSecond(), cached.integerOpsPerSecond())
                || beats(check.halfFlopsPerSecond(), cached.halfFlopsPerSecond());
    }

    private static boolean beats(Double check, Double cached) {
        return check != null && cached != null && check > (1 + RECHECK_MARGIN) * cached;
    }

    /** The best of two calibrations, each figure on its own: the higher peaks, the lower fixed cost per call. */
    static EnginePeaks best(EnginePeaks a, EnginePeaks b) {
        return new EnginePeaks(Math.max(a.flopsPerSecond(), b.flopsPerSecond()), Math.max(a.bytesPerSecond(), b.bytesPerSecond()),
                Math.min(a.callFloorMs(), b.callFloorMs()), a.flopsPerSecond() >= b.flopsPerSecond() ? a.method() : b.method(),
                max(a.integerOpsPerSecond(), b.integerOpsPerSecond()), max(a.halfFlopsPerSecond(), b.halfFlopsPerSecond()));
    }

    private static Double max(Double a, Double b) {
        return a == null ? b : b == null ? a : Double.valueOf(Math.max(a, b));
    }

    /** The integer and float16 roofs of a measure, where it has them, for the note. */
    private static String others(EnginePeaks p) {
        return (p.integerOpsPerSecond() == null ? "" : Text.f(", %.1f int8 GOP/s", p.integerOpsPerSecond() / 1e9))
                + (p.halfFlopsPerSecond() == null ? "" : Text.f(", %.1f float16 GFLOP/s", p.halfFlopsPerSecond() / 1e9));
    }

    /** Caches the entry; on a read-only or missing folder, says so and keeps going. */
    static String write(Path file, Cached cached) {
        try {
            Files.createDirectories(file.getParent());
            RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, cached));
            return "measured now, cached as " + file;
        } catch (IOException | RuntimeException e) {
            return "measured now, NOT cached (" + file.getParent() + " is not writable: " + e.getMessage()
                    + "); it will be measured again next run";
        }
    }
}
