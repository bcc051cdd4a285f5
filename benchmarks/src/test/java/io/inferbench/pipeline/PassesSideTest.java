package io.inferbench.pipeline;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.measure.WarmupOutcome;
import io.inferbench.results.AbSection;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.CellStatus;
import io.inferbench.results.RunConfig;
import io.inferbench.sweep.AlternatingKind;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
                new CellResult.ForkRecords(List.of(), null, phases));
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

    /**
     * The order of the calls in one fork of a passes cell: its units, B's first places, and each side's p50 when second
     * against when first, checked against histograms of each position kept apart here (the code subtracts).
     */
    @Test
    void theOrderOfTheCallsIsEachForksOwnAndEachSidesPositionCost() {
        SplittableRandom random = new SplittableRandom(17);
        Map<String, List<String>> perFork = new LinkedHashMap<>();
        Map<String, Histogram> merged = new LinkedHashMap<>();
        long[] bFirstCounts = new long[2];
        Histogram[][] byPosition = new Histogram[2][4]; // per fork: A first, A second, B first, B second
        for (int fork = 0; fork < 2; fork++) {
            Map<String, Histogram> phases = new LinkedHashMap<>();
            for (String phase : List.of(AlternatingKind.A, AlternatingKind.B, AlternatingKind.A_FIRST, AlternatingKind.B_FIRST)) {
                phases.put(phase, PassRecorder.newHistogram());
            }
            for (int k = 0; k < 4; k++) {
                byPosition[fork][k] = PassRecorder.newHistogram();
            }
            for (int unit = 0; unit < 800 + 200 * fork; unit++) {
                boolean bFirst = random.nextBoolean();
                // A is 5% slower when second, B 2%.
                long a = Math.round((bFirst ? 1.05e6 : 1.0e6) * (1 + 0.02 * random.nextDouble()));
                long b = Math.round((bFirst ? 2.0e6 : 2.04e6) * (1 + 0.02 * random.nextDouble()));
                phases.get(AlternatingKind.A).recordValue(a);
                phases.get(AlternatingKind.B).recordValue(b);
                phases.get(bFirst ? AlternatingKind.B_FIRST : AlternatingKind.A_FIRST).recordValue(bFirst ? b : a);
                byPosition[fork][bFirst ? 1 : 0].recordValue(a);
                byPosition[fork][bFirst ? 2 : 3].recordValue(b);
                bFirstCounts[fork] += bFirst ? 1 : 0;
            }
            phases.forEach((phase, h) -> {
                perFork.computeIfAbsent(phase, x -> new ArrayList<>()).add(HistogramCodec.encode(h));
                merged.computeIfAbsent(phase, x -> PassRecorder.newHistogram()).add(h);
            });
        }
        Map<String, String> mergedEncoded = new LinkedHashMap<>();
        merged.forEach((phase, h) -> mergedEncoded.put(phase, HistogramCodec.encode(h)));
        CellResult base = pairCell(List.of(passes(1_000_000, 1, 100)), List.of(passes(2_000_000, 2, 100)));
        CellResult pair = base.withForkRuns(List.of(fork(3), fork(4))).withPhases(
                new CellResult.UnitPhases(mergedEncoded, null, null, List.of(), perFork));

        AbSection.CallOrder order = PassesCells.order(pair, 4);
        assertEquals(1000, order.calls(), "the units of round 4's fork, the second");
        assertEquals(bFirstCounts[1], order.bFirstCalls());
        double aExpected = 100.0 * (byPosition[1][1].getValueAtPercentile(50) / (double) byPosition[1][0].getValueAtPercentile(50) - 1);
        double bExpected = 100.0 * (byPosition[1][3].getValueAtPercentile(50) / (double) byPosition[1][2].getValueAtPercentile(50) - 1);
        assertEquals(aExpected, order.aSecondPercent(), 1e-9);
        assertEquals(bExpected, order.bSecondPercent(), 1e-9);
        assertEquals(5.0, order.aSecondPercent(), 1.0, "A's 5% when second");
        assertEquals(2.0, order.bSecondPercent(), 1.0, "B's 2% when second");
        assertEquals(50.0, order.bFirstPercent(), 5.0, "a fair draw");
        assertEquals(800, PassesCells.order(pair, 3).calls(), "round 3's fork, the first");
        assertNull(PassesCells.order(pair, 5), "no fork of round 5");
        assertNull(PassesCells.order(base, 1), "a fork that recorded no order (a run before it was recorded)");

        AbSection.CallOrder cell = AbSection.CallOrder.over(List.of(
                new AbSection.Pair(1, null, null, 1, 2, 1, 2, 10, false, false, PassesCells.order(pair, 3)),
                new AbSection.Pair(2, null, null, 1, 2, 1, 2, 20, false, false, order)));
        assertEquals(1800, cell.calls());
        assertEquals(bFirstCounts[0] + bFirstCounts[1], cell.bFirstCalls());
        assertEquals((PassesCells.order(pair, 3).aSecondPercent() + order.aSecondPercent()) / 2, cell.aSecondPercent(), 1e-9,
                "the median of two pairs");
        assertNull(AbSection.CallOrder.over(List.of(new AbSection.Pair(1, true, null, 1, 2, 1, 2, 10, false))),
                "no order outside passes");
    }

    private static CellFork fork(int round) {
        return new CellFork(round, 4242, 0, 1.0, new WarmupOutcome(10, 5.0, 0.0, WarmupEnd.STEADY),
                MeasureOutcome.of(20, 21.0, 20.0, 0.0, 1.0, 0.95, MeasureEnd.PRECISE, io.inferbench.probe.Probe.Readings.NONE));
    }
}
