package io.inferbench.roofline;

import io.inferbench.analysis.Regime;
import io.inferbench.engine.onnxruntime.OnnxRuntimeCalibrationAccess;
import io.inferbench.probe.StreamArraysAccess;
import io.inferbench.results.CellProfile;
import io.inferbench.results.Json;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One memory roof per machine: the harness's own kernel, the engines' figures placed beside it, every cell's traffic
 * placed against it, and the answer line that reconciles a slope and a roofline that disagree.
 */
class MachineRoofTest {
    /** An engine that reads 20 GB/s where the machine's roof is 40: ONNX Runtime's old, undercounted graph. */
    static final ProfileResult.Calibration HALF_ROOF = new ProfileResult.Calibration("onnxruntime", "cpu", 2,
                new ProfileResult.Calibration.Peaks(100e9, 20e9, 0.1, 5, null, null), "made up", "test",
                        null).withMachineRoof(new ProfileResult.MachineRoof(40e9, "measured", "in-place add",
            "test", null, null));
    static final ProfileResult.RooflineThresholds TH = ProfileResult.RooflineThresholds.DEFAULTS;

    @Test
    void theKernelAddsInPlaceEveryElementOnce() {
        SplittableRandom random = new SplittableRandom(12345);
        float[] b = new float[1000];
        float[] c = new float[1000];
        float[] expected = new float[1000];
        for (int i = 0; i < b.length; i++) {
            b[i] = (float) random.nextDouble();
            c[i] = (float) random.nextDouble();
            expected[i] = b[i] + c[i];
        }
        MachineBandwidth.add(b, c);
        for (int i = 0; i < b.length; i++) {
            assertEquals(expected[i], b[i], 0f, "element " + i);
        }
    }

    @Test
    void theArraysAreSizedByTheLastLevelCacheTheMachineReports(@TempDir Path sys) throws IOException {
        for (String[] level : new String[][] {{"index0", "48K"}, {"index2", "2048K"}, {"index3", "491520K"}}) {
            Files.createDirectories(sys.resolve(level[0]));
            Files.writeString(sys.resolve(level[0]).resolve("size"), level[1] + "\n");
        }
        long llc = StreamArraysAccess.lastLevelCacheBytes(sys);
        assertEquals(480L << 20, llc, "the largest listed cache: the last level");
        assertEquals(960L << 20, StreamArraysAccess.arrayBytes(llc), "two arrays together four times the cache");
        assertEquals(256L << 20, StreamArraysAccess.arrayBytes(32L << 20), "never under 256 MiB each, whatever the cache");
        assertEquals(64L << 20, StreamArraysAccess.lastLevelCacheBytes(sys.resolve("absent")), "a machine that does not say");
        assertEquals(32L << 20, StreamArraysAccess.parseSize("32M"));
    }

    /** A roof of {@code bytesPerSecond} cached for {@code threads} and {@code hardware}, as if measured under that load. */
    private static Calibrations.RoofKey cached(Path cache, int threads, String hardware, double bytesPerSecond, String method,
                                               double otherProcessesPercent) {
        Calibrations.RoofKey key = new Calibrations.RoofKey(threads, hardware, StreamArraysAccess.arrayBytes(),
                Calibrations.RoofKey.KERNEL);
        RunStore.writeAtomically(cache.resolve(key.fileName()), out -> Json.mapper().writeValue(out, new Calibrations.CachedRoof(
                key, new MachineBandwidth.Roof(bytesPerSecond, 1L << 30, 1L << 29, threads, method), "2026-12-04T10:00:00Z",
                otherProcessesPercent)));
        return key;
    }

    /** The roof is the machine's, once: a cached one is read, not measured again (a measure would take seconds). */
    @Test
    void aCachedRoofIsReadForTheSameMachineAndThreads(@TempDir Path cache) throws IOException {
        Calibrations.RoofKey key = cached(cache, 2, "a machine x2", 41.5e9, "cached method", 1.0);
        ProfileResult.MachineRoof roof = Calibrations.machineRoof(2, "a machine x2", cache, 45e9);
        assertEquals(41.5e9, roof.bytesPerSecond());
        assertEquals("measured", roof.source());
        assertTrue(roof.cacheNote().startsWith("read from the cache"), roof.cacheNote());
        assertTrue(!key.fileName().equals(new Calibrations.RoofKey(1, "a machine x2", key.arrayBytes(), key.kernel()).fileName()),
                "another thread count is another roof");
    }

    /**
     * Issue 54: a roof cached from a loaded machine (here a tenth of any real one) that an engine's own figure
     * contradicts is measured again before it is used, not read; the new roof replaces the cached one when the machine
     * was quiet, and the note says why. Deleting the contradiction check leaves 1 GB/s in place and fails this.
     */
    @Test
    void aCachedRoofTheEngineContradictsIsMeasuredAgain(@TempDir Path cache) throws IOException {
        Path file = cache.resolve(cached(cache, 1, "a machine x1", 1e9, "stale", 60.0).fileName());
        ProfileResult.MachineRoof roof = Calibrations.machineRoof(1, "a machine x1", cache, 3e9);
        assertTrue(roof.bytesPerSecond() > 1.25e9, "measured again, not the cached 1 GB/s: " + roof.bytesPerSecond());
        assertTrue(roof.cacheNote().startsWith("measured again: the cached roof"), roof.cacheNote());
        Calibrations.CachedRoof rewritten = Json.mapper().readValue(file.toFile(), Calibrations.CachedRoof.class);
        if (roof.cacheNote().contains("NOT cached")) {
            assertEquals(1e9, rewritten.roof().bytesPerSecond(), "a roof measured on a busy machine is not cached");
        } else {
            assertEquals(roof.bytesPerSecond(), rewritten.roof().bytesPerSecond());
            assertNotNull(rewritten.measuredAt(), "the cache says when");
        }
    }

    /** A cached roof far too high (10 TB/s on a 2-core machine) is measured again, as one far too low is. */
    @Test
    void aCachedRoofFarTooHighIsMeasuredAgain(@TempDir Path cache) throws IOException {
        cached(cache, 1, "a machine x1", 10e12, "another machine's", 1.0);
        ProfileResult.MachineRoof roof = Calibrations.machineRoof(1, "a machine x1", cache, 20e9);
        assertTrue(roof.bytesPerSecond() < 1e12, "measured again, not the cached 10 TB/s: " + roof.bytesPerSecond());
        assertTrue(roof.cacheNote().contains("far too high for this machine"), roof.cacheNote());
    }

    @Test
    void anEnginesFigureFarFromTheRoofIsSaidWithBoth() {
        ProfileResult.MachineRoof roof = HALF_ROOF.machineRoof();
        assertEquals(50.0, roof.engineShareOfRoofPercent(), 1e-9);
        assertNotNull(roof.disagreement());
        assertTrue(roof.disagreement().contains("20.0 GB/s") && roof.disagreement().contains("40.0 GB/s"), roof.disagreement());
        assertEquals(100e9 / 40e9, HALF_ROOF.ridgeFlopsPerByte(), 1e-9, "the ridge moves to the machine's roof");
        ProfileResult.MachineRoof close = new ProfileResult.MachineRoof(40e9, "measured", "m", "n", null, null).sharedBy(34e9);
        assertNull(close.disagreement(), "85% of the roof is within 25%");
    }

    /** The default run's case: 69% of the engine's figure is 35% of the machine's roof, and not memory-bound. */
    @Test
    void cellsArePlacedAgainstTheMachinesRoofWithTheEnginesFigureBeside() {
        // 1 ms passes moving 13.8 MB: 13.8 GB/s, 69% of the engine's 20 GB/s, 34.5% of the machine's 40.
        Roofline.Placed p = Roofline.place(1e6, 13.8e6, 1, 0.1, HALF_ROOF, TH);
        assertEquals(34.5, p.bytesPercent(), 1e-9);
        assertEquals(69.0, p.bytesPercentOfEngine(), 1e-9);
        assertEquals(Roofline.BETWEEN, p.rooflineClass(), "half the machine's roof is the line, not half the engine's figure");
        assertTrue(p.reason().contains("of the machine's memory roof (69% of the engine's own bandwidth figure)"), p.reason());
        Roofline.Placed memory = Roofline.place(1e6, 24e6, 1, 0.1, HALF_ROOF, TH);
        assertEquals(Roofline.MEMORY, memory.rooflineClass());
        assertTrue(memory.bytesPercent() >= 50, "a memory-bound cell moves at least half the machine's roof");
    }

    @Test
    void aProportionalCurveAtTheMemoryRoofIsReconciledInOneSentence() {
        CellProfile first = cell(1, Roofline.BETWEEN, 20.0, 30.0);
        CellProfile last = cell(8, Roofline.MEMORY, 30.0, 70.0);
        String answer = CrossCheck.answer(RooflineTest.fit(Regime.COMPUTE_BOUND, 1.0), first, last);
        assertNotNull(answer);
        assertTrue(answer.contains("grows in proportion to batch") && answer.contains("70% of the machine's memory roof")
                && answer.contains("fewer bytes"), answer);
        String flat = CrossCheck.answer(RooflineTest.fit(Regime.MEMORY_BOUND, 1.0), first, cell(8, Roofline.COMPUTE, 75.0, 10.0));
        assertTrue(flat.contains("nearly flat") && flat.contains("75% of the FLOP roof") && flat.contains("less arithmetic"), flat);
        assertNull(CrossCheck.answer(RooflineTest.fit(Regime.COMPUTE_BOUND, 1.0), first, cell(8, Roofline.COMPUTE, 75.0, 10.0)),
                "when they agree the answer stays as short as before");
    }

    /** ONNX Runtime writes an output bound to an input's buffer in place: the figure counts exact traffic, no write-allocate. */
    @Test
    void onnxRuntimesBandwidthKernelRunsInPlace() throws Exception {
        String method = OnnxRuntimeCalibrationAccess.inPlaceAddMethod(1 << 16);
        assertTrue(method.startsWith("Add over 65536 floats in place"), method);
        assertTrue(method.contains("3 arrays") && method.contains("no write-allocate"), method);
    }

    private static CellProfile cell(int batch, String rooflineClass, double flopPct, double bytePct) {
        return new CellProfile(new CellProfile.Shape("onnxruntime", "cpu", "tiny", 256,
                batch),
                new CellProfile.Work(1e6, null, 1e6, "test"),
                new CellProfile.Achieved(4, 1e9, 1e9, flopPct, bytePct, 1.0),
                new CellProfile.Roof(100e9, null, 10.0),
                new CellProfile.Floor(0.1, 0.025),
                new CellProfile.Verdict(rooflineClass, "because"),
                new CellProfile.Ops(List.of(), List.of(), null, "test"), 2 * bytePct);
    }
}
