package io.inferbench.serve;

import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The served passes against the forecast's, batch by batch, and the simulator scaled by that ratio. */
class ServedPassesTest {
    /** Passes of exactly 1 ms at one row, 1.5 ms at two, 2.5 ms at four (every histogram value the same). */
    private static ServiceTimes times(long oneRowNs) {
        Map<Integer, Histogram> byRows = new TreeMap<>();
        byRows.put(1, constant(oneRowNs));
        byRows.put(2, constant(oneRowNs * 3 / 2));
        byRows.put(4, constant(oneRowNs * 5 / 2));
        return new ServiceTimes(byRows);
    }

    private static Histogram constant(long ns) {
        Histogram h = PassRecorder.newHistogram();
        h.recordValueWithCount(ns, 100);
        return h;
    }

    /** A completed batch of {@code size} requests that started at {@code startNs} and took {@code serviceNs}. */
    private static List<Request> batch(int size, long startNs, long serviceNs, int firstIndex) {
        List<Request> batch = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Request r = new Request(firstIndex + i, startNs - 10, firstIndex + i);
            r.sentNs = startNs - 5;
            r.workerReadyNs = startNs - 5;
            r.batchStartNs = startNs;
            r.batchSize = size;
            r.doneNs = startNs + serviceNs;
            batch.add(r);
        }
        return batch;
    }

    /**
     * Each batch counts once, whatever its size, against the forecast's median at its own size: a batch of 2 served in
     * 1.8 ms against 1.5 ms is 1.2; of 4 in 2.5 ms, 1.0; of 1 in 1.1 ms, 1.1; of 3 (interpolated: 2 ms) in 3 ms, 1.5.
     * The median of 1.0, 1.1, 1.2, 1.5 is 1.15. A request that failed is not a pass.
     */
    @Test
    void theRatioIsTheMedianOverBatchesOfServedOverTheForecastAtTheSameSize() {
        long ms = 1_000_000;
        QueueSimulator forecast = new QueueSimulator(times(ms), 1);
        List<Request> requests = new ArrayList<>();
        requests.addAll(batch(2, 10 * ms, 1_800_000, 0));
        requests.addAll(batch(4, 20 * ms, 2_500_000, 2));
        requests.addAll(batch(1, 30 * ms, 1_100_000, 6));
        requests.addAll(batch(3, 40 * ms, 3_000_000, 7));
        Request failed = batch(1, 50 * ms, 9 * ms, 10).get(0);
        failed.error = "boom";
        requests.add(failed);
        // Within 1e-3: the forecast's passes come from histograms kept to 3 significant digits.
        assertEquals(1.15, ServedPasses.median(ServedPasses.ratios(requests, forecast, null)), 1e-3);
    }

    /** With a workload, a batch is priced at the bucket its longest member pads to, as the simulator prices it. */
    @Test
    void aWorkloadBatchIsPricedAtItsLongestMembersBucket() {
        long ms = 1_000_000;
        QueueSimulator forecast = new QueueSimulator(times(ms), Map.of(64, times(ms), 256, times(4 * ms)), 1);
        List<Request> requests = new ArrayList<>(batch(2, 10 * ms, 6 * ms, 0));
        // Request 0 is in bucket 64, request 1 in 256: the batch ran at 256, where two rows take 6 ms.
        assertEquals(1.0, ServedPasses.median(ServedPasses.ratios(requests, forecast, index -> index == 0 ? 64 : 256)), 1e-3);
        assertEquals(4.0, ServedPasses.median(ServedPasses.ratios(requests, forecast, index -> 64)), 1e-3);
    }

    @Test
    void noCompletedBatchGivesNoRatio() {
        Request r = new Request(0, 1);
        r.error = "not completed";
        double[] none = ServedPasses.ratios(List.of(r), new QueueSimulator(times(1_000_000), 1), null);
        assertEquals(0, none.length);
        assertNull(ServedPasses.median(none));
        assertNull(ServedPasses.p99(none));
    }

    /**
     * A replay puts each request in the queue when it was really sent and counts it from when it was meant to be: 100
     * requests 50 ms apart, passes of exactly 1 ms, two of them sent 20 ms late (still in order). No queue forms, so
     * those two take 21 ms from their intended time and the others 1 ms: the p99 (nearest rank, the 99th of 100) is
     * 21 ms. Simulated on the intended times instead, every request would take 1 ms.
     */
    @Test
    void aReplayQueuesRequestsWhenTheyWereSentAndCountsThemFromWhenTheyWereMeantToBe() {
        long ms = 1_000_000;
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Request r = new Request(i, 5 * ms + i * 50 * ms);
            r.sentNs = r.intendedNs + (i == 40 || i == 70 ? 20 * ms : 0);
            requests.add(r);
        }
        QueueSimulator asServed = new QueueSimulator(times(ms), 1).servedAs(new double[] {1.0});
        assertEquals(21.0, ServedPasses.replayedP99Ms(requests, asServed, ServingPolicy.unbatched(1), 3, null), 0.02);
    }

    /**
     * Drawn as served: every batch takes the forecast's median at its size times a served ratio, path cost included. With
     * one ratio of 2, a one-row request with no queue takes exactly 2 x (1 ms + 0.1 ms); with ratios 1 (99 times) and 10
     * (once), the median stays 1.1 ms and the tail is 11 ms, whatever spread the forecast's own passes had.
     */
    @Test
    void passesDrawnAsServedKeepTheMediansPerSizeAndTakeTheServedSpread() {
        ServiceTimes withPath = times(1_000_000).plusPath(Map.of(1, 100_000L));
        long[] apart = new long[2000];
        for (int i = 0; i < apart.length; i++) {
            apart[i] = i * 60_000_000_000L;
        }
        QueueSimulator.Outcome doubled = new QueueSimulator(withPath, 1).servedAs(new double[] {2}).simulate(apart,
                ServingPolicy.unbatched(1), 1);
        assertEquals(2.2, doubled.percentileMs(50), 0.01);
        assertEquals(2.2, doubled.latencyNs().getMaxValue() / 1e6, 0.01);

        double[] ratios = new double[100];
        java.util.Arrays.fill(ratios, 1.0);
        ratios[37] = 10.0;
        QueueSimulator.Outcome tail = new QueueSimulator(withPath, 1).servedAs(ratios).simulate(apart,
                ServingPolicy.unbatched(1), 1);
        assertEquals(1.1, tail.percentileMs(50), 0.01);
        assertEquals(11.0, tail.latencyNs().getMaxValue() / 1e6, 0.02);
        assertEquals(10.0, ServedPasses.p99(new double[] {1, 1, 1, 10}), 1e-12, "nearest rank: the 4th of 4");
    }

    /**
     * A slow spell replayed where it was: a request every 1 ms, passes of 0.5 ms, but 1.5 ms for every pass that began in
     * [400, 500) ms. In time, the spell's passes outrun the arrivals for 100 ms and the queue builds to tens of ms; drawn
     * at random, the same one-in-ten slow passes scatter, and the queue never grows past a few of them.
     */
    @Test
    void aReplayInTimeKeepsASlowSpellThatRandomDrawsScatter() {
        long ms = 1_000_000;
        QueueSimulator forecast = new QueueSimulator(times(ms / 2), 1);
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Request r = new Request(i, i * ms);
            r.sentNs = r.intendedNs;
            r.workerReadyNs = r.intendedNs;
            r.batchStartNs = r.intendedNs;
            r.batchSize = 1;
            r.doneNs = r.batchStartNs + (i >= 400 && i < 500 ? 3 : 1) * ms / 2;
            requests.add(r);
        }
        ServingPolicy policy = ServingPolicy.unbatched(1);
        double inTime = ServedPasses.replayedInTimeP99Ms(requests, forecast, null, policy, 7, null);
        double drawn = ServedPasses.replayedP99Ms(requests, forecast.servedAs(ServedPasses.ratios(requests, forecast, null)),
                policy, 7, null);
        // The spell: 100 arrivals, each pass 0.5 ms longer than the gap, so the 100th waits about 50 ms.
        assertTrue(inTime > 30, "in time, p99 " + inTime);
        assertTrue(drawn < 6, "drawn at random, p99 " + drawn);
    }
}
