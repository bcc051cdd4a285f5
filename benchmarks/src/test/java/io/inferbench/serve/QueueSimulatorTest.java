package io.inferbench.serve;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulator against closed-form queueing results and against the batcher's rule. */
class QueueSimulatorTest {
    private static final long SERVICE_NS = 1_000_000;

    /**
     * M/D/1: Poisson arrivals, a constant service time D, one server, first come first served. Mean wait in the queue
     * W = rho / (2 mu (1 - rho)) = rho D / (2 (1 - rho)) (Pollaczek-Khinchine with zero service variance). Within 2% at
     * rho = 0.5 and 0.8, over 2 million simulated requests.
     */
    @Test
    void reproducesTheMD1MeanWaitingTime() {
        QueueSimulator simulator = new QueueSimulator(ServiceTimes.constant(SERVICE_NS), 1);
        for (double rho : new double[] {0.5, 0.8}) {
            double rate = rho * 1e9 / SERVICE_NS;
            long[] arrivals = Arrivals.POISSON.schedule(rate, 2_000_000 / rate, 12345);
            QueueSimulator.Outcome outcome = simulator.simulate(arrivals, ServingPolicy.unbatched(1), 1);
            double expectedNs = rho * SERVICE_NS / (2 * (1 - rho));
            assertEquals(expectedNs, outcome.meanWaitNs(), 0.02 * expectedNs, "rho " + rho);
            assertEquals(1.0, outcome.meanBatchSize(), 1e-12);
        }
    }

    @Test
    void batchesNeverExceedMaxBatchAndFillUnderLoad() {
        QueueSimulator simulator = new QueueSimulator(ServiceTimes.constant(SERVICE_NS), 1);
        long[] arrivals = Arrivals.POISSON.schedule(5_000, 10, 7);
        QueueSimulator.Outcome heavy = simulator.simulate(arrivals, new ServingPolicy(1, 8, 5), 1);
        assertTrue(heavy.meanBatchSize() > 4 && heavy.meanBatchSize() <= 8, "mean batch " + heavy.meanBatchSize());
        assertEquals(arrivals.length, heavy.requests());
    }

    /** Below the rate where batches fill, every request waits out the max wait and then one pass: 5 + 1 ms. */
    @Test
    void atLowLoadLatencyIsMaxWaitPlusOnePass() {
        QueueSimulator simulator = new QueueSimulator(ServiceTimes.constant(SERVICE_NS), 1);
        QueueSimulator.Outcome light = simulator.simulate(Arrivals.UNIFORM.schedule(20, 10, 1), new ServingPolicy(1, 8, 5), 1);
        assertEquals(6.0, light.percentileMs(50), 0.01);
        assertEquals(1.0, light.meanBatchSize(), 1e-12);
    }

    @Test
    void theSameSeedGivesTheSameForecast() {
        QueueSimulator simulator = new QueueSimulator(ServiceTimes.constant(SERVICE_NS), 1);
        long[] arrivals = Arrivals.POISSON.schedule(700, 5, 3);
        assertEquals(simulator.simulate(arrivals, new ServingPolicy(2, 4, 3), 9).latencyNs(),
                simulator.simulate(arrivals, new ServingPolicy(2, 4, 3), 9).latencyNs());
    }
}
