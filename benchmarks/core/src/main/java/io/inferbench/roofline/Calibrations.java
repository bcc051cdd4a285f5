package io.inferbench.roofline;

import io.inferbench.Text;
import io.inferbench.measure.CellLoop;
import io.inferbench.probe.CpuProbe;
import io.inferbench.probe.CpuUse;
import io.inferbench.engine.Device;
import io.inferbench.engine.EnginePeaks;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.measure.JitClock;
import io.inferbench.results.Json;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This machine's peaks, once per machine, engine, device and thread count: measured with the engine itself
 * ({@link io.inferbench.engine.InferenceEngine#calibrate}) in {@value #ROUNDS} rounds of every measure, each figure the
 * best round's, once this JVM's compiler has quieted (see {@link #calibrate}), then cached as JSON under the cache folder,
 * keyed by the CPU model (or GPU), the engine's version, the device and the threads. Every run re-checks cached peaks
 * with the same measures at {@value #CHECK_SECONDS} s each; a check that beats them by more than 10% means they were
 * taken on a busy machine, so it calibrates again and keeps the best of the three; the note records the check. A cache folder that cannot be
 * written does not stop anything: the calibration runs uncached, and its note says so.
 */
public final class Calibrations {
    private Calibrations() {
    }

    /**
     * What the measures are: a cache written by another set of measures (before the integer and float16 roofs, 2; in one
     * round rather than {@value #ROUNDS}, 3; before each engine's bandwidth kernel counted exact traffic over arrays sized
     * by the last-level cache, 4) is measured again rather than read with roofs missing, taken in one busy go, or counted
     * another way.
     */
    static final int MEASURES = 4;

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
                                                          String hardware, Path cacheDir, Path nativeCacheDir) {
        return measureOrRead(Engines.create(backend, nativeCacheDir), backend, device, intraOpThreads, interOpThreads, hardware,
                cacheDir, JitClock.jvm());
    }

    static ProfileResult.Calibration measureOrRead(InferenceEngine engine, String backend, String device, int intraOpThreads,
                                                   int interOpThreads, String hardware, Path cacheDir, JitClock jit) {
        Key key = new Key(backend, engine.engineVersion(), device, intraOpThreads, interOpThreads, hardware);
        Path file = cacheDir.resolve(key.fileName());
        EnginePeaks peaks = null;
        Double replaced = null;
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
            if (farTooHigh(check, peaks)) {
                replaced = peaks.flopsPerSecond();
                Rounds fresh = calibrate(engine, Device.parse(device), intraOpThreads, interOpThreads, jit);
                peaks = best(fresh.peaks(), check);
                note = "the cache " + file + " was " + checked + ", more than " + Text.plain(FAR_TOO_HIGH) + "x above the "
                        + "check: far too high for this machine (another machine's, or a corrupt file), so measured again ("
                        + fresh.note() + "), the cache not kept; " + write(file, new Cached(key, peaks));
            } else if (beats(check, peaks)) {
                replaced = peaks.flopsPerSecond();
                Rounds fresh = calibrate(engine, Device.parse(device), intraOpThreads, interOpThreads, jit);
                peaks = best(peaks, best(fresh.peaks(), check));
                note = "the cache " + file + " was " + checked + ", beaten by more than " + Text.f("%.0f%%", 100 * RECHECK_MARGIN)
                        + ": calibrated again (" + fresh.note() + "), the best of cache, check and calibration kept; "
                        + write(file, new Cached(key, peaks));
            } else {
                note = "read from the cache " + file + "; " + checked + ", within " + Text.f("%.0f%%", 100 * RECHECK_MARGIN);
            }
        } else {
            Rounds fresh = calibrate(engine, Device.parse(device), intraOpThreads, interOpThreads, jit);
            peaks = fresh.peaks();
            note = fresh.note() + "; " + write(file, new Cached(key, peaks));
        }
        return new ProfileResult.Calibration(backend, device, intraOpThreads,
                new ProfileResult.Calibration.Peaks(peaks.flopsPerSecond(), peaks.bytesPerSecond(),
                        peaks.callFloorMs(), peaks.flopsPerSecond() / peaks.bytesPerSecond(),
                        peaks.integerOpsPerSecond(), peaks.halfFlopsPerSecond()),
                peaks.method(), note, null, key.fileName(), replaced);
    }

    /** What the machine's memory roof's cache key holds: anything that changes the roof, and the kernel's version. */
    record RoofKey(int threads, String hardware, long arrayBytes, int kernel) {
        static final int KERNEL = 1;

        String fileName() {
            return "memory-roof-t" + threads + "-" + Integer.toHexString(Math.abs((hardware + "|" + arrayBytes + "|" + kernel)
                    .hashCode())) + ".json";
        }
    }

    /**
     * A cached memory roof: its key, so a hash collision is caught, the roof, and when and under what load it was
     * measured (null in a cache written before they were recorded).
     *
     * @param measuredAt            when it was measured, ISO-8601 UTC
     * @param otherProcessesPercent how much of the machine other processes took meanwhile ({@link CpuProbe})
     */
    record CachedRoof(RoofKey key, MachineBandwidth.Roof roof, String measuredAt, Double otherProcessesPercent) {
    }

    /**
     * How far a cached memory roof may lie above the engine's own bandwidth figure (measured again every run) before it is
     * far too high and measured again: an engine's kernel reads below the machine's roof, a few times below at most.
     */
    static final double ROOF_FAR_ABOVE_ENGINE = 10;

    /** Seconds of passes the machine's memory roof is measured over, in all. */
    static final double ROOF_SECONDS = 1.5;

    /**
     * The machine's memory roof with {@code threads} threads ({@link MachineBandwidth}), once per machine, thread count and
     * array size: measured the first time, then read from the cache. It is a property of the machine, not of an engine, so
     * every engine's cells are placed against the same roof.
     *
     * <p><b>Nothing stale rules a run.</b> A roof measured while other processes took more than
     * {@link CellLoop#DISTURBED_PERCENT} of the machine is used by this run (said in its note) but never cached; and a
     * cached roof that {@code engineBytesPerSecond} contradicts (the engine moved more than the roof allows, by more than
     * {@link ProfileResult.MachineRoof#DISAGREEMENT_PERCENT}) is measured again before it is used, and the cache rewritten
     * when the new one was measured on a quiet machine: one roof cached from a loaded machine would otherwise place every
     * later run's cells against it (docs/roofline.md).
     *
     * @param engineBytesPerSecond the engine's own bandwidth figure, which a roof may not lie far below; null for none
     */
    public static ProfileResult.MachineRoof machineRoof(int threads, String hardware, Path cacheDir, Double engineBytesPerSecond) {
        RoofKey key = new RoofKey(threads, hardware, io.inferbench.probe.StreamArrays.arrayBytes(), RoofKey.KERNEL);
        Path file = cacheDir.resolve(key.fileName());
        String why = "measured now";
        if (Files.isRegularFile(file)) {
            try {
                CachedRoof cached = Json.mapper().readValue(file.toFile(), CachedRoof.class);
                if (key.equals(cached.key())) {
                    double roofBytes = cached.roof().bytesPerSecond();
                    boolean tooHigh = engineBytesPerSecond != null && roofBytes > ROOF_FAR_ABOVE_ENGINE * engineBytesPerSecond;
                    if (tooHigh) {
                        why = Text.f("measured again: the cached roof %s (%.1f GB/s) lies more than %sx above the engine's "
                                + "%.1f GB/s, far too high for this machine", file, roofBytes / 1e9,
                                Text.plain(ROOF_FAR_ABOVE_ENGINE), engineBytesPerSecond / 1e9);
                    } else if (engineBytesPerSecond == null
                            || engineBytesPerSecond <= roofBytes * (1 + ProfileResult.MachineRoof.DISAGREEMENT_PERCENT / 100)) {
                        return new ProfileResult.MachineRoof(roofBytes, "measured", cached.roof().method(),
                                "read from the cache " + file + (cached.measuredAt() == null ? ""
                                        : Text.f(" (measured %s, other processes %s of the machine)", cached.measuredAt(),
                                        cached.otherProcessesPercent() == null ? "unknown"
                                                : Text.f("%.0f%%", cached.otherProcessesPercent()))), null, null);
                    }
                    if (!tooHigh) {
                        why = Text.f("measured again: the cached roof %s (%.1f GB/s) was contradicted by the engine's %.1f GB/s",
                                file, roofBytes / 1e9, engineBytesPerSecond / 1e9);
                    }
                }
            } catch (IOException e) {
                // unreadable: measure again and rewrite it
            }
        }
        CpuProbe cpu = CpuProbe.system();
        CpuProbe.Snapshot before = cpu.snapshot();
        long startNs = System.nanoTime();
        MachineBandwidth.Roof roof = MachineBandwidth.measure(threads, ROOF_SECONDS);
        CpuUse used = CpuProbe.between(before, cpu.snapshot(), (System.nanoTime() - startNs) / 1e6, threads,
                Runtime.getRuntime().availableProcessors());
        Double others = used.otherProcessesPercent();
        String note;
        if (others != null && others > CellLoop.DISTURBED_PERCENT) {
            note = Text.f("%s, NOT cached: other processes took %.0f%% of the machine meanwhile (more than %.0f%%), so the "
                    + "next run measures it again", why, others, CellLoop.DISTURBED_PERCENT);
        } else {
            try {
                Files.createDirectories(file.getParent());
                RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, new CachedRoof(key, roof,
                        java.time.Instant.now().toString(), others)));
                note = why + ", cached as " + file;
            } catch (IOException | RuntimeException e) {
                note = why + ", NOT cached (" + file.getParent() + " is not writable: " + e.getMessage() + ")";
            }
        }
        return new ProfileResult.MachineRoof(roof.bytesPerSecond(), "measured", roof.method(), note, null, null);
    }

    /** Rounds of every measure in a calibration; each figure is the best round's. */
    static final int ROUNDS = 3;
    /** Seconds each measure runs per round: the three rounds together time each measure for about a second. */
    static final double ROUND_SECONDS = 1.0 / ROUNDS;
    /** How often the compiler's clock is read while waiting for it to quiet, and the most compiling a quiet interval holds. */
    static final long QUIET_INTERVAL_MS = 100;
    static final long QUIET_COMPILE_MS = 5;
    /** The longest wait for a quiet compiler; past it the calibration runs anyway and its note says so. */
    static final long QUIET_CAP_MS = 3_000;

    /** A calibration's peaks and how it went: the wait for the compiler, and each round's FLOP peak. */
    record Rounds(EnginePeaks peaks, String note) {
    }

    /**
     * A full calibration. The peaks judge every later run on this machine, and {@code compare} refuses runs whose
     * peaks differ by more than 15%, so one busy second must not set them: a first calibration can read a fifth low
     * (docs/findings.md, "A calibration read low"). Two things can do that: this JVM's own compiler threads, still compiling the analysis that ran just before, share the
     * cores with the engine's threads; and a virtual machine slows for a second or two at a time. So it waits (up to {@value #QUIET_CAP_MS} ms) until an
     * interval of {@value #QUIET_INTERVAL_MS} ms holds at most {@value #QUIET_COMPILE_MS} ms of compiling, then runs every
     * measure {@value #ROUNDS} times, a third of a second each, round after round, and keeps each figure's best round: a
     * peak is what the machine sustains, and a busy moment costs one round, not the figure.
     */
    static Rounds calibrate(InferenceEngine engine, Device device, int intraOpThreads, int interOpThreads, JitClock jit) {
        String quiet = awaitQuietCompiler(jit, QUIET_CAP_MS);
        EnginePeaks best = null;
        StringBuilder rounds = new StringBuilder();
        for (int round = 0; round < ROUNDS; round++) {
            EnginePeaks peaks = engine.calibrate(device, intraOpThreads, interOpThreads, ROUND_SECONDS);
            rounds.append(round == 0 ? "" : ", ").append(Text.f("%.1f", peaks.flopsPerSecond() / 1e9));
            best = best == null ? peaks : best(best, peaks);
        }
        return new Rounds(best, Text.f("%d rounds of %.2f s per measure after %s; FLOP peak per round %s GFLOP/s, each figure "
                + "the best round's", ROUNDS, ROUND_SECONDS, quiet, rounds));
    }

    /** Waits until the compiler is quiet, or the cap; says how long it waited and whether it got there. */
    static String awaitQuietCompiler(JitClock jit, long capMs) {
        long start = System.nanoTime();
        long last = jit.totalCompilationMs();
        if (last < 0) {
            return "no wait (this JVM does not time its compiler)";
        }
        while (true) {
            try {
                Thread.sleep(QUIET_INTERVAL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "an interrupted wait for the compiler";
            }
            long now = jit.totalCompilationMs();
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            if (now - last <= QUIET_COMPILE_MS) {
                return Text.f("the compiler quieted (%d ms)", waitedMs);
            }
            if (waitedMs >= capMs) {
                return Text.f("%d ms without the compiler quieting (%d ms compiled in the last %d ms)", waitedMs, now - last,
                        QUIET_INTERVAL_MS);
            }
            last = now;
        }
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

    /**
     * How many times a re-check a cached figure may lie above before it is called far too high and measured again: a
     * busy machine slows a check by what others take (at most a few times on a small machine), never by this much.
     */
    static final double FAR_TOO_HIGH = 4;

    /** A cached peak far above what this machine measures now ({@link #FAR_TOO_HIGH}): another machine's, or corrupt. */
    static boolean farTooHigh(EnginePeaks check, EnginePeaks cached) {
        return farAbove(cached.flopsPerSecond(), check.flopsPerSecond()) || farAbove(cached.bytesPerSecond(), check.bytesPerSecond())
                || farAbove(cached.integerOpsPerSecond(), check.integerOpsPerSecond())
                || farAbove(cached.halfFlopsPerSecond(), check.halfFlopsPerSecond());
    }

    private static boolean farAbove(Double cached, Double check) {
        return cached != null && check != null && check > 0 && cached > FAR_TOO_HIGH * check;
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
