package io.inferbench.serve;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.ServingResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The closed loop's knee: the first concurrency whose doubling gains under 10% throughput, with that doubling beside it. */
class ConcurrencyKneesTest {
    private static LoadPointResult closed(int clients, double rps) {
        Histogram h = PassRecorder.newHistogram();
        h.recordValue(1_000_000L * clients);
        LatencySummary l = LatencySummary.of(h);
        return new LoadPointResult(new SeriesKey("onnxruntime", "cpu", "tiny", 64),
                new LoadPointResult.Load("closed-loop", "closed loop", clients, null, null, 1, "point", 2),
                new LoadPointResult.Requests(100, 100, 0, null, 0, 0),
                new LoadPointResult.Pacing(true, false, null, true, null, null, false, rps),
                new LoadPointResult.Latency(l, l, Map.of(), Map.of(1, 100L), 1.0), null, null, null);
    }

    @Test
    void theKneeIsTheLastConcurrencyWhoseDoublingStillPaid() {
        List<ServingResult.ConcurrencyKnee> knees = ConcurrencyKnees.of(List.of(closed(4, 200), closed(1, 100), closed(8, 205),
                closed(2, 190)));
        assertEquals(1, knees.size());
        ServingResult.ConcurrencyKnee k = knees.get(0);
        assertEquals(2, k.concurrency(), "2 -> 4 gained 5.3%");
        assertEquals(4, k.nextConcurrency());
        assertEquals(100 * (200.0 / 190 - 1), k.gainPercent(), 1e-9);
        assertEquals(2.0, k.p99Ms(), 0.01);
        assertTrue(k.reason().contains("2 clients is the knee"), k.reason());
    }

    @Test
    void noKneeWhenEveryDoublingPaysOrNoneWasMeasured() {
        ServingResult.ConcurrencyKnee paying = ConcurrencyKnees.of(List.of(closed(1, 100), closed(2, 180), closed(4, 300))).get(0);
        assertNull(paying.concurrency());
        assertTrue(paying.reason().contains("the knee is beyond them"), paying.reason());
        ServingResult.ConcurrencyKnee none = ConcurrencyKnees.of(List.of(closed(1, 100), closed(3, 250))).get(0);
        assertNull(none.concurrency());
        assertTrue(none.reason().contains("doubling apart"), none.reason());
    }
}
