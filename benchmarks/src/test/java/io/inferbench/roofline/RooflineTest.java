package io.inferbench.roofline;

import io.inferbench.TestPaths;
import io.inferbench.analysis.Regime;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.Engines;
import io.inferbench.engine.OpTrace;
import io.inferbench.results.CellProfile;
import io.inferbench.results.ProfileResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The roofline rule on made-up peaks, the cross-check's explanations, and a calibration that cannot be cached. */
class RooflineTest {
    /** 100 GFLOP/s, 10 GB/s, a 0.1 ms call floor. */
    static final ProfileResult.Calibration PEAKS = new ProfileResult.Calibration("onnxruntime", "cpu", 2,
                new ProfileResult.Calibration.Peaks(100e9, 10e9, 0.1, 10, null, null), "made up", "test", null);
    static final ProfileResult.RooflineThresholds TH = ProfileResult.RooflineThresholds.DEFAULTS;

    @Test
    void classifiesByTheStatedRule() {
        // 1 ms passes: floor share 10%.
        assertEquals(Roofline.COMPUTE, Roofline.place(80e6, 1e6, 1, 0.1, PEAKS, TH).rooflineClass(), "80% of the FLOP peak");
        assertEquals(Roofline.MEMORY, Roofline.place(1e6, 8e6, 1, 0.1, PEAKS, TH).rooflineClass(), "80% of the bandwidth");
        assertEquals(Roofline.BETWEEN, Roofline.place(10e6, 1e6, 1, 0.1, PEAKS, TH).rooflineClass(), "10% and 10%");
        assertEquals(Roofline.OVERHEAD, Roofline.place(1e3, 1e3, 0.15, 0.1, PEAKS, TH).rooflineClass(), "the floor is 67% of the pass");
        Roofline.Placed p = Roofline.place(40e6, 2e6, 1, 0.1, PEAKS, TH);
        assertEquals(40.0, p.flopsPercent(), 1e-9);
        assertEquals(20.0, p.bytesPercent(), 1e-9);
        assertEquals(20.0, p.intensity(), 1e-9);
    }

    /** A figure above the tolerance over a measured peak is never printed: the class says why. */
    @Test
    void aFigureAbovePeakIsWithheld() {
        Roofline.Placed over = Roofline.place(120e6, 1e6, 1, 0.1, PEAKS, TH);
        assertEquals(Roofline.UNRELIABLE, over.rooflineClass());
        assertNull(over.flopsPercent());
        assertNull(over.flopsPerSecond());
        assertTrue(over.reason().contains("120% of the measured FLOP roof"), over.reason());
        assertEquals(Roofline.COMPUTE, Roofline.place(105e6, 1e6, 1, 0.1, PEAKS, TH).rooflineClass(), "within the 110% tolerance");
        Roofline.Placed bytes = Roofline.place(1e6, 15e6, 1, 0.1, PEAKS, TH);
        assertTrue(bytes.reason().contains("caches"), bytes.reason());
        assertNull(bytes.bytesPercent(), "the traffic figure, over the bandwidth, is withheld");
        assertEquals(1.0, bytes.flopsPercent(), 1e-9, "the sound FLOP figure is kept");
        assertEquals(Roofline.BETWEEN, bytes.rooflineClass(), "classed from the FLOPs and the fixed cost");
        assertEquals(Roofline.COMPUTE, Roofline.place(80e6, 15e6, 1, 0.1, PEAKS, TH).rooflineClass(),
                "80% of the FLOP peak is compute-bound whatever the (withheld) traffic figure");
        assertEquals(Roofline.OVERHEAD, Roofline.place(1e3, 2e6, 0.15, 0.1, PEAKS, TH).rooflineClass(),
                "the overhead test still runs when the traffic figure is withheld");
    }

    /** Memory-bound rests on counted traffic, an upper bound: the reason says so. */
    @Test
    void aMemoryBoundClassSaysItRestsOnAnUpperBound() {
        Roofline.Placed p = Roofline.place(1e6, 8e6, 1, 0.1, PEAKS, TH);
        assertEquals(Roofline.MEMORY, p.rooflineClass());
        assertTrue(p.reason().contains("upper bound"), p.reason());
    }

    /** An op whose own rate passes the peak by more than the tolerance gets no rate, and says why. */
    @Test
    void anOpRateAbovePeakIsWithheld() {
        OpTrace.Shape x = new OpTrace.Shape("float", new long[] {1, 64, 128});
        OpTrace.Shape w = new OpTrace.Shape("float", new long[] {128, 128});
        // 2 * 64 * 128 * 128 = 2.1 MFLOP in 1 us: 2.1 TFLOP/s against a 100 GFLOP/s peak.
        OpTrace trace = new OpTrace(List.of(new OpTrace.NodeRun("mm", "MatMul", "CPUExecutionProvider", true, 1, List.of(x, w), List.of(x)),
                new OpTrace.NodeRun("sm", "Softmax", "CPUExecutionProvider", true, 3, List.of(x), List.of(x))), 4, 2);
        List<ProfileResult.OpShare> shares = ProfileRunner.opShares(trace, PEAKS, TH);
        ProfileResult.OpShare mm = shares.stream().filter(o -> o.opType().equals("MatMul")).findFirst().orElseThrow();
        assertTrue(mm.rateWithheld());
        assertNull(mm.flopsPercentOfPeak());
        assertEquals(25, mm.sharePercent(), 1e-9);
        ProfileResult.OpShare sm = shares.get(0);
        assertEquals("Softmax", sm.opType(), "largest share first");
        assertEquals(100 * (5.0 * 8192 / 3e-6) / 100e9, sm.flopsPercentOfPeak(), 1e-9);
    }

    static SeriesFit fit(Regime regime, double fixedMs) {
        return new SeriesFit(new SeriesKey("djl", "cpu", "tiny", 64), new SeriesFit.Points(List.of(1, 8), List.of(4.0, 5.0),
                List.of(5.0, 6.0)), new SeriesFit.Lines(null, null, fixedMs, 0.1), new SeriesFit.Marginal(0.1, 0.05, 0.15),
                new SeriesFit.Gains(List.of(), List.of()), null, null,
                new SeriesFit.Verdict(regime, "test", regime.advice(), false, List.of()));
    }

    private static CellProfile cell(int batch, String rooflineClass, Double flopPct, double floorShare) {
        return new CellProfile(new CellProfile.Shape("djl", "cpu", "tiny", 64, batch),
                new CellProfile.Work(1e6, Map.of("fp32", 1e6), 1e6, "test"),
                new CellProfile.Achieved(4, 1e9, 1e9, flopPct, 5.0, 1.0),
                new CellProfile.Roof(100e9, null, 10.0),
                new CellProfile.Floor(floorShare * 4, floorShare),
                new CellProfile.Verdict(rooflineClass, "because"),
                new CellProfile.Ops(List.of(new ProfileResult.OpShare("MatMul", 74, 14, 60.0, false,
                        false), new ProfileResult.OpShare("SkipLayerNormalization", 12, 4, null, false, false)),
                        List.of(), null, "test"),
                null);
    }

    /** "Slope says transitional; the fixed cost is per-call overhead": the roofline wins on the remedy. */
    @Test
    void aFlatCurveThatIsOverheadIsExplainedAsOverhead() {
        ProfileResult.CrossCheck check = CrossCheck.of(fit(Regime.TRANSITIONAL, 4.2),
                List.of(cell(1, Roofline.OVERHEAD, 3.0, 0.8), cell(8, Roofline.BETWEEN, 10.0, 0.2)));
        assertTrue(check.explanation().contains("per-call overhead") && check.explanation().contains("fewer, fused calls"),
                check.explanation());
        assertTrue(check.explanation().contains("74% of the pass is MatMul at 60% of its roof"), check.explanation());
        assertEquals(Roofline.OVERHEAD, check.rooflineClassByBatch().get(1));
    }

    /** A transitional slope with a large fixed cost per call names the overhead's share at both ends. */
    @Test
    void aTransitionalCurveWithALargeFixedCostNamesIt() {
        ProfileResult.CrossCheck check = CrossCheck.of(fit(Regime.TRANSITIONAL, 0.8),
                List.of(cell(1, Roofline.BETWEEN, 14.0, 0.4), cell(8, Roofline.BETWEEN, 30.0, 0.1)));
        assertTrue(check.explanation().contains("fixed cost per call (1.600 ms) is 40% of the batch-1 pass and 10% at batch 8"),
                check.explanation());
        ProfileResult.CrossCheck small = CrossCheck.of(fit(Regime.TRANSITIONAL, 0.8),
                List.of(cell(1, Roofline.BETWEEN, 14.0, 0.1), cell(8, Roofline.BETWEEN, 30.0, 0.02)));
        assertTrue(!small.explanation().contains("per-call overhead"), small.explanation());
    }

    @Test
    void aProportionalCurveFarFromPeakBlamesTheKernels() {
        ProfileResult.CrossCheck check = CrossCheck.of(fit(Regime.COMPUTE_BOUND, 0.1),
                List.of(cell(1, Roofline.BETWEEN, 12.0, 0.1), cell(8, Roofline.BETWEEN, 15.0, 0.02)));
        assertTrue(check.explanation().contains("the engine's kernels set the pace"), check.explanation());
    }

    /**
     * An int8 model's pass: 150 M integer operations in its projections and 10 M float32 FLOPs elsewhere, in 1 ms. Against
     * the float32 roof (100 GFLOP/s) that is 160%, withheld as impossible; against its own roofs (int8 400 GOP/s: the pass
     * needs 0.375 + 0.1 ms) it is 47.5%, a sound figure with a class, and the reason names the roofs.
     */
    @Test
    void anInt8CellIsJudgedAgainstTheIntegerRoof() {
        ProfileResult.Calibration vnni = new ProfileResult.Calibration("onnxruntime", "cpu", 2,
                new ProfileResult.Calibration.Peaks(100e9, 10e9, 0.1, 10, 400e9, null), "made up", "test", null);
        Map<String, Double> work = Map.of("int8", 150e6, "fp32", 10e6);
        Roofline.Placed p = Roofline.place(work, 1e6, 1, 0.1, vnni, TH);
        assertEquals(47.5, p.flopsPercent(), 1e-9);
        assertEquals(160e6 / 0.475e-3, p.roofFlopsPerSecond(), 1e-3);
        assertEquals(Roofline.BETWEEN, p.rooflineClass(), p.reason());
        assertTrue(p.reason().contains("int8 work (94%) at the int8 roof 400.0 G/s"), p.reason());

        Roofline.Placed noRoof = Roofline.place(work, 1e6, 1, 0.1, PEAKS, TH);
        assertEquals(Roofline.UNRELIABLE, noRoof.rooflineClass(), "without an int8 roof the float32 one judges it");
        assertTrue(noRoof.reason().contains("no int8 roof was measured"), noRoof.reason());
        assertEquals(Roofline.COMPUTE, Roofline.place(Map.of("fp32", 80e6), 1e6, 1, 0.1, vnni, TH).rooflineClass(),
                "float32 work keeps the float32 roof");
    }

    /** A cache folder that cannot be written: the calibration still runs, uncached, and says so. */
    @Test
    void aCalibrationThatCannotBeCachedRunsUncachedAndSaysSo(@TempDir Path dir) throws IOException {
        Path notAFolder = Files.writeString(dir.resolve("file"), "in the way");
        ProfileResult.Calibration c = Calibrations.measureOrRead("onnxruntime", "cpu", 1, 1, "test cpu", notAFolder.resolve("cache"),
                TestPaths.nativeCache());
        assertTrue(c.cacheNote().contains("NOT cached"), c.cacheNote());
        assertTrue(c.peakFlopsPerSecond() > 1e8 && c.peakBytesPerSecond() > 1e8 && c.callFloorMs() > 0, c.toString());
        assertTrue(c.peakIntegerOpsPerSecond() != null && c.peakIntegerOpsPerSecond() > 1e8, "an int8 roof on the CPU: " + c);
        assertNull(c.peakHalfFlopsPerSecond(), "no float16 roof where ONNX Runtime's CPU build has no float16 MatMul");
        assertTrue(c.method().contains("MatMulInteger"), c.method());
        assertEquals(c.peakFlopsPerSecond() / c.peakBytesPerSecond(), c.ridgeFlopsPerByte(), 1e-9);
        assertTrue(Engines.names().contains(c.backend()));
    }

    /**
     * A cache written while the machine was busy (here: peaks of 1 GFLOP/s and 1 GB/s, far below anything this machine
     * does): the run's short re-check beats it by more than 10%, so it calibrates again, keeps the best, rewrites the
     * cache, and says so. A cache the check does not beat is kept, and the note records the check.
     */
    @Test
    void aCalibrationABusyMomentPoisonedIsReplaced(@TempDir Path dir) throws IOException {
        var engine = Engines.create("onnxruntime", TestPaths.nativeCache());
        Calibrations.Key key = new Calibrations.Key("onnxruntime", engine.engineVersion(), "cpu", 1, 1, "test cpu");
        Path file = dir.resolve(key.fileName());
        Calibrations.write(file, new Calibrations.Cached(key, new io.inferbench.engine.EnginePeaks(1e9, 1e9, 5, "busy")));
        ProfileResult.Calibration c = Calibrations.measureOrRead("onnxruntime", "cpu", 1, 1, "test cpu", dir, TestPaths.nativeCache());
        assertTrue(c.cacheNote().contains("calibrated again"), c.cacheNote());
        assertTrue(c.peakFlopsPerSecond() > 1.1e9 && c.callFloorMs() < 5, c.toString());
        ProfileResult.Calibration again = Calibrations.measureOrRead("onnxruntime", "cpu", 1, 1, "test cpu", dir, TestPaths.nativeCache());
        assertTrue(again.cacheNote().contains("re-checked now"), again.cacheNote());
        if (again.cacheNote().contains("within")) {
            assertEquals(c.peakFlopsPerSecond(), again.peakFlopsPerSecond(), 1e-6 * c.peakFlopsPerSecond(), "the cache kept");
        }
    }

    @Test
    void theBestOfTwoCalibrationsTakesEachFigureOnItsOwn() {
        var a = new io.inferbench.engine.EnginePeaks(100e9, 20e9, 0.01, "a");
        var b = new io.inferbench.engine.EnginePeaks(120e9, 15e9, 0.02, "b");
        var best = Calibrations.best(a, b);
        assertEquals(120e9, best.flopsPerSecond());
        assertEquals(20e9, best.bytesPerSecond());
        assertEquals(0.01, best.callFloorMs());
        assertTrue(Calibrations.beats(new io.inferbench.engine.EnginePeaks(111e9, 20e9, 0.01, "c"), a));
        assertTrue(!Calibrations.beats(new io.inferbench.engine.EnginePeaks(109e9, 21e9, 0.01, "c"), a));
    }
}
