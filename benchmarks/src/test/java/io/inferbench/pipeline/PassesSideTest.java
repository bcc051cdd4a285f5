package io.inferbench.pipeline;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.RunConfig;
import io.inferbench.sweep.AlternatingKind;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code passes} fork's cell split into A's and B's ({@link PassesCells#side}): each side's numbers are its own phase's
 * alone, fork by fork, checked against percentiles computed here from the same seeded passes.
 */
class PassesSideTest {
    private static final RunConfig.ModelInfo A = new RunConfig.ModelInfo("tiny", "aaaa", 1, "A's");
    private static final RunConfig.ModelInfo B = new RunConfig.ModelInfo("tiny-int8", "bbbb", 1, "B's");

    /** Seeded passes around {@code centreNs}, within ±10%. */
    private static Histogram passes(long centreNs, long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        Histogram h = PassRecorder.newHistogram();
        for (int i = 0; i < count; i++) {
            h.recordValue(centreNs + random.nextLong(-centreNs / 10, centreNs / 10));
        }
        return h;
    }

    /** The fork runner's cell of two forks: its unit A's and B's passes together, its phases each side's. */
    private static CellResult pairCell(List<Histogram> a, List<Histogram> b) {
        List<String> sums = List.of("unused-1", "unused-2");
        Histogram mergedA = PassRecorder.newHistogram();
        Histogram mergedB = PassRecorder.newHistogram();
        a.forEach(mergedA::add);
        b.forEach(mergedB::add);
        CellResult.UnitPhases phases = new CellResult.UnitPhases(Map.of("A", HistogramCodec.encode(mergedA), "B",
                HistogramCodec.encode(mergedB)), null, null, List.of(), Map.of("A", a.stream().map(HistogramCodec::encode).toList(),
                "B", b.stream().map(HistogramCodec::encode).toList()));
        return new CellResult(CellStatus.OK, null, new CellResult.Identity("onnxruntime", "cpu", "tiny-int8", "bbbb", 64, 4),
                new CellResult.Counts(2, 40, 600), new CellResult.Latency(LatencySummary.of(passes(3_000_000, 9, 600)),
                LatencySummary.of(passes(3_000_000, 10, 40)), 1.0), null,
                new CellResult.Session("CPU", 2, 1, "1.20.0", "cpu", "cpu", "read"), new CellResult.Histograms("unused", sums),
                List.of(), null, phases);
    }

    @Test
    void eachSideIsItsOwnPhaseForkByForkWithItsModel() {
        List<Histogram> a = List.of(passes(1_000_000, 1, 300), passes(1_100_000, 2, 300));
        List<Histogram> b = List.of(passes(2_000_000, 3, 300), passes(2_200_000, 4, 300));
        CellResult pair = pairCell(a, b);
        for (String side : List.of(AlternatingKind.A, AlternatingKind.B)) {
            List<Histogram> own = side.equals("A") ? a : b;
            CellResult cell = PassesCells.side(pair, side, side.equals("A") ? A : B);
            assertEquals(side.equals("A") ? "tiny" : "tiny-int8", cell.model());
            assertEquals(side.equals("A") ? "aaaa" : "bbbb", cell.modelSha256());
            LatencySummary expected = LatencySummary.ofForks(own);
            assertEquals(expected.p50Ms(), cell.latencyMs().p50Ms(), 1e-9);
            assertEquals(expected.p99Ms(), cell.latencyMs().p99Ms(), 1e-9);
            assertEquals(2, cell.forkHistogramsNs().size(), "each fork's own, in fork order");
            assertEquals(own.get(1).getValueAtPercentile(50) / 1e6,
                    HistogramCodec.p50Ms(cell.forkHistogramsNs().get(1)), 1e-9);
            assertEquals(600, cell.measuredPasses(), "one pass of each side per unit");
            assertNull(cell.warmupLatencyMs(), "the warm-up timed both sides together: no percentiles of one side");
            assertNull(cell.phases());
            assertEquals(4 * 1000.0 / expected.meanMs(), cell.samplesPerSecond(), 1e-9);
        }
        assertTrue(PassesCells.side(pair, "A", A).latencyMs().p50Ms() < 1.2, "A's p50 is A's, not the pair's 3 ms");
    }

    @Test
    void aFailedCellStaysFailedWithItsSidesModelAndNoPercentiles() {
        CellResult pair = pairCell(List.of(passes(1_000_000, 1, 100)), List.of(passes(2_000_000, 2, 100)));
        CellResult failed = CellResult.failedKeeping(pair, "the session of A went away");
        CellResult a = PassesCells.side(failed, "A", A);
        assertEquals(CellStatus.FAILED, a.status());
        assertEquals("the session of A went away", a.error());
        assertEquals("tiny", a.model());
        assertNull(a.latencyMs());
        assertNull(a.histogramNs());
    }
}
