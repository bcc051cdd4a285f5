package io.inferbench.serve;

import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.LoadPointResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        return new LoadPointResult("fake", "cpu", "fake", 64, "open-loop", "no batching", 1, rate, null, 1, "sla-step", seconds,
                100, 100, 0, null, 0, true, rate, l, l, Map.of(), Map.of(1, 100L), 1.0, null, null);
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
}
