package io.inferbench.profile;

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
 * keyed by the CPU model (or GPU), the engine's version, the device and the threads. A cache folder that cannot be
 * written does not stop anything: the calibration runs uncached, and its note says so.
 */
public final class Calibrations {
    private Calibrations() {
    }

    /** What goes into the cache key: anything that changes the peaks. */
    record Key(String backend, String engineVersion, String device, int intraOpThreads, int interOpThreads, String hardware) {
        String fileName() {
            return "calibration-" + backend + "-" + device.replace(':', '_') + "-t" + intraOpThreads + "x" + interOpThreads + "-"
                    + Integer.toHexString(Math.abs((engineVersion + "|" + hardware).hashCode())) + ".json";
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
            note = "read from the cache " + file;
        } else {
            peaks = engine.calibrate(Device.parse(device), intraOpThreads, interOpThreads);
            note = write(file, new Cached(key, peaks));
        }
        return new ProfileResult.Calibration(backend, device, intraOpThreads, peaks.flopsPerSecond(), peaks.bytesPerSecond(),
                peaks.callFloorMs(), peaks.flopsPerSecond() / peaks.bytesPerSecond(), peaks.method(), note, null);
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
