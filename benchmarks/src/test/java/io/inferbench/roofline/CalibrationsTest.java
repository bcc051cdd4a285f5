package io.inferbench.roofline;

import io.inferbench.engine.Device;
import io.inferbench.engine.EnginePeaks;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionSpec;
import io.inferbench.measure.JitClock;
import io.inferbench.results.ProfileResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a calibration keeps one busy moment out of the peaks every later run is judged against. */
class CalibrationsTest {
    /** An engine whose measures return the given peaks in turn, and remembers how long each measure was asked to run. */
    private static final class ScriptedEngine implements InferenceEngine {
        final Deque<EnginePeaks> script;
        final List<Double> seconds = new ArrayList<>();

        ScriptedEngine(EnginePeaks... peaks) {
            script = new ArrayDeque<>(List.of(peaks));
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public String engineVersion() {
            return "1";
        }

        @Override
        public String buildInfo() {
            return "scripted";
        }

        @Override
        public InferenceSession open(SessionSpec spec) {
            throw new UnsupportedOperationException();
        }

        @Override
        public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads) {
            return calibrate(device, intraOpThreads, interOpThreads, 1.0);
        }

        @Override
        public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads, double secondsPerMeasure) {
            seconds.add(secondsPerMeasure);
            return script.removeFirst();
        }
    }

    private static EnginePeaks peaks(double gflops, double gbytes, double floorMs) {
        return new EnginePeaks(gflops * 1e9, gbytes * 1e9, floorMs, "scripted " + gflops, 1000e9 + gflops * 1e9, null);
    }

    private static final JitClock QUIET = () -> 1234;

    /**
     * The case that failed a CI run: the first calibration's float32 product ran 22% slow for a moment. Measured in
     * rounds, the busy round costs nothing: each figure is its best round's, so the cache holds the machine's peak.
     */
    @Test
    void aBusyRoundDoesNotSetThePeaks(@TempDir Path dir) {
        var engine = new ScriptedEngine(peaks(285.2, 61, 0.004), peaks(369.6, 55, 0.003), peaks(365.0, 58, 0.005));
        ProfileResult.Calibration c = Calibrations.measureOrRead(engine, "scripted", "cpu", 2, 1, "test cpu", dir, QUIET);
        assertEquals(369.6e9, c.peakFlopsPerSecond(), 1);
        assertEquals(61e9, c.peakBytesPerSecond(), 1);
        assertEquals(0.003, c.callFloorMs(), 1e-12);
        assertEquals(1369.6e9, c.peakIntegerOpsPerSecond(), 1);
        assertEquals(List.of(Calibrations.ROUND_SECONDS, Calibrations.ROUND_SECONDS, Calibrations.ROUND_SECONDS), engine.seconds,
                "three rounds, a third of a second per measure each");
        assertTrue(c.cacheNote().contains("3 rounds") && c.cacheNote().contains("285.2, 369.6, 365.0")
                && c.cacheNote().contains("the compiler quieted"), c.cacheNote());
        // The next run reads the cache and re-checks it once, briefly: within 10%, the cached peaks stay.
        var next = new ScriptedEngine(peaks(350, 57, 0.004));
        ProfileResult.Calibration again = Calibrations.measureOrRead(next, "scripted", "cpu", 2, 1, "test cpu", dir, QUIET);
        assertEquals(List.of(Calibrations.CHECK_SECONDS), next.seconds);
        assertEquals(369.6e9, again.peakFlopsPerSecond(), 1);
        assertTrue(again.cacheNote().contains("within 10%"), again.cacheNote());
        assertEquals(null, again.replacedPeakFlopsPerSecond(), "nothing replaced");
        assertEquals(c.cacheFile(), again.cacheFile());
    }

    /** A cached calibration a re-check beats by more than 10% is measured again in rounds, and the best of all is kept. */
    @Test
    void aBeatenCacheIsMeasuredAgainInRounds(@TempDir Path dir) {
        Calibrations.measureOrRead(new ScriptedEngine(peaks(200, 40, 0.01), peaks(210, 41, 0.01), peaks(205, 42, 0.01)),
                "scripted", "cpu", 2, 1, "test cpu", dir, QUIET);
        var engine = new ScriptedEngine(peaks(300, 50, 0.02), peaks(320, 45, 0.02), peaks(310, 44, 0.02), peaks(290, 43, 0.02));
        ProfileResult.Calibration c = Calibrations.measureOrRead(engine, "scripted", "cpu", 2, 1, "test cpu", dir, QUIET);
        assertEquals(4, engine.seconds.size(), "one check, then three rounds");
        assertEquals(320e9, c.peakFlopsPerSecond(), 1);
        assertEquals(50e9, c.peakBytesPerSecond(), 1, "the check's bandwidth was the best");
        assertEquals(0.01, c.callFloorMs(), 1e-12, "the cache's floor was the lowest");
        assertTrue(c.cacheNote().contains("calibrated again (3 rounds"), c.cacheNote());
        assertEquals(210e9, c.replacedPeakFlopsPerSecond(), 1, "the peak it replaced, for compare's lineage check");
        assertTrue(c.cacheFile().startsWith("calibration-scripted-cpu-t2x1-"), c.cacheFile());
    }

    /**
     * A cached peak far too high for this machine (1e6 GFLOP/s, another machine's or a corrupt file) is measured again
     * and replaced, not kept as the best: keeping the best of cache and calibration would keep it for good.
     */
    @Test
    void aCacheFarTooHighIsMeasuredAgainAndReplaced(@TempDir Path dir) {
        Calibrations.measureOrRead(new ScriptedEngine(peaks(1e6, 40, 0.01), peaks(1e6, 41, 0.01), peaks(1e6, 42, 0.01)),
                "scripted", "cpu", 2, 1, "test cpu", dir, QUIET);
        var engine = new ScriptedEngine(peaks(300, 40, 0.02), peaks(320, 41, 0.02), peaks(310, 42, 0.02), peaks(290, 43, 0.02));
        ProfileResult.Calibration c = Calibrations.measureOrRead(engine, "scripted", "cpu", 2, 1, "test cpu", dir, QUIET);
        assertEquals(4, engine.seconds.size(), "one check, then three rounds");
        assertEquals(320e9, c.peakFlopsPerSecond(), 1, "the cached 1e6 GFLOP/s is gone");
        assertTrue(c.cacheNote().contains("far too high for this machine"), c.cacheNote());
        ProfileResult.Calibration again = Calibrations.measureOrRead(new ScriptedEngine(peaks(315, 41, 0.02)), "scripted", "cpu",
                2, 1, "test cpu", dir, QUIET);
        assertEquals(320e9, again.peakFlopsPerSecond(), 1, "the cache now holds this machine's");
    }

    /**
     * The cache is keyed by what makes two machines differ: two parts both called "AMD EPYC", or the same part with other
     * memory, are two keys; the same machine is one.
     */
    @Test
    void theCacheIsKeyedByThePartItsCoresAndItsMemoryNotItsName() throws Exception {
        io.inferbench.results.RunResult sample = io.inferbench.results.SampleRuns.sampleRun();
        String here = ProfileRunner.hardware(sample, "cpu");
        var json = (com.fasterxml.jackson.databind.node.ObjectNode) io.inferbench.results.Json.mapper().valueToTree(sample);
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("environment").get("cpu")).put("model", 1);
        String otherPart = ProfileRunner.hardware(io.inferbench.results.Json.mapper().treeToValue(json,
                io.inferbench.results.RunResult.class), "cpu");
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("environment").get("cpu")).put("model", 17);
        ((com.fasterxml.jackson.databind.node.ObjectNode) json.get("environment")).put("memoryBytes", 64L << 30);
        String otherMemory = ProfileRunner.hardware(io.inferbench.results.Json.mapper().treeToValue(json,
                io.inferbench.results.RunResult.class), "cpu");
        assertTrue(here.contains("family 25 model 17 stepping 1") && here.contains("avx512f"), here);
        assertTrue(!here.equals(otherPart) && !here.equals(otherMemory) && !otherPart.equals(otherMemory),
                here + " / " + otherPart + " / " + otherMemory);
        assertEquals(here, ProfileRunner.hardware(sample, "cpu"));
    }

    /** The wait for the compiler ends once an interval holds at most 5 ms of compiling, and gives up at its cap. */
    @Test
    void theCalibrationWaitsForTheCompilerToQuiet() {
        long[] compiled = {0};
        int[] reads = {0};
        JitClock settling = () -> {
            reads[0]++;
            return compiled[0] += reads[0] <= 4 ? 40 : 1;
        };
        String quieted = Calibrations.awaitQuietCompiler(settling, 5_000);
        assertTrue(quieted.startsWith("the compiler quieted"), quieted);
        assertTrue(reads[0] >= 5, "it read the clock until the compiling stopped: " + reads[0]);

        long[] busy = {0};
        String capped = Calibrations.awaitQuietCompiler(() -> busy[0] += 50, 300);
        assertTrue(capped.contains("without the compiler quieting") && capped.contains("50 ms compiled"), capped);
        assertEquals("no wait (this JVM does not time its compiler)", Calibrations.awaitQuietCompiler(() -> -1, 300));
    }
}
