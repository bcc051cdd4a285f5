package io.inferbench.serve;

import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The batching rule that the live batcher and the forecast share: each of its three reasons to start, and its hold. */
class ServingPolicyTest {
    private static final ServingPolicy BATCH_4_WAIT_5MS = new ServingPolicy(1, 4, 5);

    @Test
    void aFullBatchStartsAtOnce() {
        assertTrue(BATCH_4_WAIT_5MS.startsBatch(4, 0, 1, true));
        assertFalse(BATCH_4_WAIT_5MS.startsBatch(3, 0, 1, true), "3 of 4 waiting 1 ns: held");
    }

    @Test
    void theOldestsHoldEndingStartsAPartBatch() {
        assertFalse(BATCH_4_WAIT_5MS.startsBatch(1, 1_000, 1_000 + 4_999_999, true));
        assertTrue(BATCH_4_WAIT_5MS.startsBatch(1, 1_000, 1_000 + 5_000_000, true), "held exactly maxWait: it starts");
        assertEquals(1_000 + 5_000_000, BATCH_4_WAIT_5MS.holdEndsNs(1_000));
    }

    @Test
    void nothingIsHeldForRequestsThatWillNeverCome() {
        assertTrue(BATCH_4_WAIT_5MS.startsBatch(1, 0, 1, false));
    }

    @Test
    void withoutABatcherEveryRequestStartsAlone() {
        assertTrue(ServingPolicy.unbatched(2).startsBatch(1, 0, 0, true));
    }

    /**
     * The forecast decides as the rule does. Passes take 1 ms at 1 or 4 rows. Arrivals at 0, 1, 2 and 3 ms fill a batch at
     * 3 ms (waits 3, 2, 1, 0 ms); the fifth, at 10 ms, is held its whole 5 ms because a sixth will come (at 30 ms), and
     * the sixth starts at once because none will come after it. Without the hold the fifth would wait 20 ms; without
     * "none will come" the sixth would wait 5 ms.
     */
    @Test
    void theForecastAppliesTheSameRule() {
        long ms = 1_000_000;
        Histogram pass = PassRecorder.newHistogram();
        pass.recordValue(ms);
        QueueSimulator simulator = new QueueSimulator(new ServiceTimes(Map.of(1, pass, 4, pass)), 1);
        long[] arrivals = {0, ms, 2 * ms, 3 * ms, 10 * ms, 30 * ms};
        QueueSimulator.Outcome outcome = simulator.simulate(arrivals, BATCH_4_WAIT_5MS, 1, null, arrivals);
        assertEquals(3, outcome.batches());
        assertEquals((3 + 2 + 1 + 0 + 5 + 0) * ms / 6.0, outcome.meanWaitNs(), 1.0);
    }
}
