package io.inferbench.serve;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.SlaBoundary;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SLA search on a system whose p99 is a known function of the rate: p99 = 5 ms + rate / 10. */
class SlaSearchTest {
    private static final double SLA_MS = 25; // met up to exactly 200 requests/s

    private static LoadPointResult point(double rate, double seconds) {
        Histogram h = PassRecorder.newHistogram();
        long p99Ns = Math.round((5 + rate / 10) * 1e6);
        for (int i = 0; i < 100; i++) {
            h.recordValue(p99Ns);
        }
        LatencySummary l = LatencySummary.of(h);
        return new LoadPointResult(new SeriesKey("fake", "cpu", "fake", 64),
                new LoadPointResult.Load("open-loop", "no batching", 1, rate, null, 1, "sla-step", seconds),
                new LoadPointResult.Requests(100, 100, 0, null, 0, 0),
                new LoadPointResult.Pacing(true, false, null, true, rate, rate, false, rate),
                new LoadPointResult.Latency(l, l, Map.of(), Map.of(1, 100L), 1.0), null, null, null);
    }

    @Test
    void findsTheBoundaryFromABadEstimateAndKeepsEveryStep() throws InterruptedException {
        SlaSearch search = new SlaSearch(SLA_MS, 5);
        for (double estimate : new double[] {60, 190, 700}) {
            List<LoadPointResult> measured = new ArrayList<>();
            SlaSearch.Result result = search.search(estimate, false, SlaSearchTest::point, measured);
            assertNotNull(result.best(), "estimate " + estimate);
            assertTrue(result.best().rateRps() <= 200 && result.best().rateRps() > 180,
                    "estimate " + estimate + ": found " + result.best().rateRps() + " requests/s, truth 200");
            assertEquals(measured.size(), result.steps().size());
            assertTrue(result.steps().stream().allMatch(s -> s.metSla() == (s.rateRps() <= 200)), "each step's verdict");
            assertTrue(result.steps().stream().allMatch(s -> s.requests() == 100 && s.seconds() >= 5), "length stated");
        }
    }

    @Test
    void noRateMeetsAnSlaBelowTheFloor() throws InterruptedException {
        SlaSearch.Result result = new SlaSearch(4, 5).search(100, false, SlaSearchTest::point, new ArrayList<>());
        assertNull(result.best());
    }

    @Test
    void thePreScanFindsTheSimulatedBoundary() {
        SlaSearch search = new SlaSearch(SLA_MS, 5);
        Double predicted = search.predictBoundary(rate -> 5 + rate / 10, 1, 10_000);
        assertEquals(200, predicted, 200 * 0.011);
    }

    /** A max wait above the SLA: low rates fail (each batch waits it out), a middle band passes, high rates fail again. */
    @Test
    void thePreScanFindsABoundaryAboveRatesThatFail() {
        SlaSearch search = new SlaSearch(SLA_MS, 5);
        Double predicted = search.predictBoundary(rate -> rate < 50 ? 30 : 5 + rate / 10, 1, 10_000);
        assertEquals(200, predicted, 200 * 0.011, "the top of the passing band, not null because rate 1 fails");
        assertNull(search.predictBoundary(rate -> 30, 1, 10_000));
    }

    @Test
    void aLowRateStepRunsLongEnoughForTwoHundredRequests() {
        assertEquals(20, new SlaSearch(SLA_MS, 5).stepSeconds(10), 1e-9);
        assertEquals(5, new SlaSearch(SLA_MS, 5).stepSeconds(1000), 1e-9);
    }

    private static LoadPointResult pointWithP99(double rate, double seconds, double p99Ms) {
        Histogram h = PassRecorder.newHistogram();
        for (int i = 0; i < 100; i++) {
            h.recordValue(Math.round(p99Ms * 1e6));
        }
        LatencySummary l = LatencySummary.of(h);
        return new LoadPointResult(new SeriesKey("fake", "cpu", "fake", 64),
                new LoadPointResult.Load("batching", "fake", 1, rate, 20.0, 8, "sla-step", seconds),
                new LoadPointResult.Requests(100, 100, 0, null, 0, 0),
                new LoadPointResult.Pacing(true, false, null, true, rate, rate, false, rate),
                new LoadPointResult.Latency(l, l, Map.of(), Map.of(1, 100L), 1.0), null, null, null);
    }

    /**
     * A max wait near the SLA: rates under a narrow band fail (batches wait out the max wait), the band [170, 200]
     * passes, rates above fail. From the simulator's estimate of 200, halving from 0.7x walks away from the band; the
     * search must find it, near its top, and measure no rate twice.
     */
    @Test
    void aNarrowPassingBandAboveFailingRatesIsFound() throws InterruptedException {
        SlaSearch.LivePoint banded = (rate, seconds) -> pointWithP99(rate, seconds, rate >= 170 && rate <= 200 ? 15 : 30);
        SlaSearch.Result result = new SlaSearch(SLA_MS, 5).search(200, false, banded, new ArrayList<>());
        assertNotNull(result.best(), "the band was found: " + result.steps());
        assertTrue(result.best().rateRps() > 185 && result.best().rateRps() <= 200, "found " + result.best().rateRps());
        assertEquals(SlaBoundary.MEASURED, result.boundary());
        List<Double> rates = result.steps().stream().map(SlaBoundary.Step::rateRps).sorted().toList();
        for (int i = 1; i < rates.size(); i++) {
            assertTrue(rates.get(i) > rates.get(i - 1) * 1.005, "measured twice: " + rates);
        }
    }

    /** Every rate passes: the answer is a lower bound, and says so; it is not passed off as the boundary. */
    @Test
    void whenEveryRateTriedPassesTheAnswerIsALowerBound() throws InterruptedException {
        SlaSearch.Result result = new SlaSearch(SLA_MS, 5).search(100, false, (rate, seconds) -> pointWithP99(rate, seconds, 1),
                new ArrayList<>());
        assertEquals(SlaBoundary.LOWER_BOUND, result.boundary());
        double highest = result.steps().stream().mapToDouble(SlaBoundary.Step::rateRps).max().orElseThrow();
        assertEquals(highest, result.best().rateRps(), 1e-9, "the highest rate tried");
    }

    /**
     * A slow model: 60 ms a pass, capacity about 16.7 requests/s, SLA 500 ms. Its boundary (about 11 requests/s) lies
     * under the old pre-scan's floor of 20 requests/s at 5 s points, and its capacity times 1.5 under twice that, so
     * the old range ran backwards. The pre-scan now reaches down to the search's floor, and the live search finds it.
     */
    @Test
    void aSlowModelFindsItsBoundary() throws InterruptedException {
        double capacity = 1000 / 60.0;
        SlaSearch.Predictor mD1 = rate -> rate >= capacity ? Double.POSITIVE_INFINITY : 60 + 60 * 4 * rate / capacity / (1 - rate / capacity);
        SlaSearch search = new SlaSearch(500, 5);
        Double predicted = search.predictBoundary(mD1, SlaSearch.floorRps(), SlaSearchRun.scanTop(capacity));
        assertNotNull(predicted, "the pre-scan range reaches the boundary");
        assertTrue(predicted > 10 && predicted < capacity, "predicted " + predicted);
        SlaSearch.Result result = search.search(predicted, false, (rate, seconds) -> pointWithP99(rate, seconds, mD1.p99Ms(rate)),
                new ArrayList<>());
        assertEquals(predicted, result.best().rateRps(), predicted * 0.1);
        assertTrue(result.steps().stream().allMatch(s -> s.seconds() >= 200 / s.rateRps() - 1e-9 && s.seconds() <= 60),
                "each step long enough for 200 requests");
    }

    /** A model that cannot meet the SLA at any rate: one step at the floor says so, with the floor named. */
    @Test
    void noRateDownToTheFloorIsSaidWithTheFloor() throws InterruptedException {
        List<LoadPointResult> measured = new ArrayList<>();
        SlaSearch.Result result = new SlaSearch(SLA_MS, 5).search(SlaSearch.floorRps(), true,
                (rate, seconds) -> pointWithP99(rate, seconds, 1000), measured);
        assertNull(result.best());
        assertEquals(SlaBoundary.NONE, result.boundary());
        assertEquals(1, measured.size());
        assertEquals(200 / 60.0, result.steps().get(0).rateRps(), 1e-9);
        assertEquals(60, result.steps().get(0).seconds(), 1e-9);
    }

    /** An overloaded step fails the SLA even when the p99 of what completed looks fine. */
    @Test
    void anOverloadedStepNeverMeetsTheSla() {
        LoadPointResult ok = pointWithP99(100, 5, 1);
        LoadPointResult overloaded = new LoadPointResult(new SeriesKey("fake", "cpu", "fake", 64),
                new LoadPointResult.Load("open-loop", "fake", 1, 100.0, null, 1, "sla-step", 5),
                new LoadPointResult.Requests(500, 500, 0, null, 0, 0),
                new LoadPointResult.Pacing(true, true, "the queue grew", false, 100.0, 100.0, false, 80.0),
                new LoadPointResult.Latency(ok.latencyFromIntendedMs(), ok.latencyFromIntendedMs(), Map.of(), Map.of(1, 500L), 1.0), null, null, null);
        assertTrue(new SlaSearch(SLA_MS, 5).passes(ok));
        assertFalse(new SlaSearch(SLA_MS, 5).passes(overloaded));
    }

    @Test
    void failedRequestsMeetTheSlaOnlyUnderItsErrorRate() throws Exception {
        LoadPointResult ok = pointWithP99(100, 5, 1);
        LoadPointResult oneFailed = new LoadPointResult(new SeriesKey("fake", "cpu", "fake", 64),
                new LoadPointResult.Load("open-loop", "fake", 1, 100.0, null, 1, "sla-step", 5),
                new LoadPointResult.Requests(1000, 999, 1, "boom", 0, 0),
                new LoadPointResult.Pacing(true, false, null, true, 100.0, 100.0, false, 99.9),
                new LoadPointResult.Latency(ok.latencyFromIntendedMs(), ok.latencyFromIntendedMs(), Map.of(), Map.of(1, 999L), 1.0), null, null, null);
        assertEquals(0.001, oneFailed.errorRate(), 1e-12);
        assertFalse(new SlaSearch(SLA_MS, 5).passes(oneFailed), "by default every request must complete");
        assertTrue(new SlaSearch(SLA_MS, 5, 0.001).passes(oneFailed), "one in a thousand is allowed at 0.001");
        assertFalse(new SlaSearch(SLA_MS, 5, 0.0005).passes(oneFailed));
        String json = io.inferbench.results.Json.mapper().writeValueAsString(oneFailed);
        assertTrue(json.contains("\"errorRate\" : 0.001"), json);
        assertEquals(1, io.inferbench.results.Json.mapper().readValue(json, LoadPointResult.class).failed());
    }
}
