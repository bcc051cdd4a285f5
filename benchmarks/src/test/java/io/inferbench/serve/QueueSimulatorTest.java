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
        QueueSimulator simulator = new QueueSimulator(constantServiceTimes(SERVICE_NS), 1);
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
        QueueSimulator simulator = new QueueSimulator(constantServiceTimes(SERVICE_NS), 1);
        long[] arrivals = Arrivals.POISSON.schedule(5_000, 10, 7);
        QueueSimulator.Outcome heavy = simulator.simulate(arrivals, new ServingPolicy(1, 8, 5), 1);
        assertTrue(heavy.meanBatchSize() > 4 && heavy.meanBatchSize() <= 8, "mean batch " + heavy.meanBatchSize());
        assertEquals(arrivals.length, heavy.requests());
    }

    /** Below the rate where batches fill, every request waits out the max wait and then one pass: 5 + 1 ms. */
    @Test
    void atLowLoadLatencyIsMaxWaitPlusOnePass() {
        QueueSimulator simulator = new QueueSimulator(constantServiceTimes(SERVICE_NS), 1);
        QueueSimulator.Outcome light = simulator.simulate(Arrivals.UNIFORM.schedule(20, 10, 1), new ServingPolicy(1, 8, 5), 1);
        assertEquals(6.0, light.percentileMs(50), 0.01);
        assertEquals(1.0, light.meanBatchSize(), 1e-12);
    }

    @Test
    void theSameSeedGivesTheSameForecast() {
        QueueSimulator simulator = new QueueSimulator(constantServiceTimes(SERVICE_NS), 1);
        long[] arrivals = Arrivals.POISSON.schedule(700, 5, 3);
        assertEquals(simulator.simulate(arrivals, new ServingPolicy(2, 4, 3), 9).latencyNs(),
                simulator.simulate(arrivals, new ServingPolicy(2, 4, 3), 9).latencyNs());
    }

    /**
     * One measured batch size (1 row, 1 ms) cannot price a batch of 4: in proportion to rows it would be 4 ms, leaving
     * out the fixed cost per call that makes batching pay. It is refused, and said in the note; two sizes price it.
     */
    @Test
    void oneMeasuredBatchSizeDoesNotPriceLargerBatches() {
        org.HdrHistogram.Histogram one = io.inferbench.measure.PassRecorder.newHistogram();
        one.recordValue(SERVICE_NS);
        ServiceTimes single = new ServiceTimes(java.util.Map.of(1, one));
        assertTrue(single.canPrice(1));
        org.junit.jupiter.api.Assertions.assertFalse(single.canPrice(4));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> single.quantile(4, 0.5));
        assertTrue(single.note(java.util.List.of(1, 4)).contains("4 (not priced"), single.note(java.util.List.of(1, 4)));
        org.HdrHistogram.Histogram two = io.inferbench.measure.PassRecorder.newHistogram();
        two.recordValue(SERVICE_NS + SERVICE_NS / 4);
        ServiceTimes both = new ServiceTimes(java.util.Map.of(1, one, 2, two));
        assertTrue(both.canPrice(4));
        assertEquals(1.75e6, both.quantile(4, 0.5), 1.75e6 * 0.01, "1 ms fixed and 0.25 ms per row, from two sizes");
    }

    /**
     * Two workers whose passes each need 2 engine threads, on 2 cores: when both are busy each pass takes twice as long,
     * so under heavy load they carry what one worker alone carries, not twice it. Without the sharing (cores 0) the
     * forecast would double the capacity.
     */
    @Test
    void concurrentPassesShareTheCores() {
        QueueSimulator shared = new QueueSimulator(constantServiceTimes(SERVICE_NS), java.util.Map.of(), 1, 2, 2);
        QueueSimulator unshared = new QueueSimulator(constantServiceTimes(SERVICE_NS), java.util.Map.of(), 1, 0, 0);
        assertEquals(1, shared.stretch(0), 1e-12);
        assertEquals(2, shared.stretch(1), 1e-12);
        long[] arrivals = Arrivals.UNIFORM.schedule(1500, 2, 1); // 1.5x one worker's capacity
        ServingPolicy two = ServingPolicy.unbatched(2);
        double sharedP99 = shared.simulate(arrivals, two, 1).percentileMs(99);
        double unsharedP99 = unshared.simulate(arrivals, two, 1).percentileMs(99);
        assertTrue(unsharedP99 < 3, "two unshared workers carry 1,500/s easily: " + unsharedP99);
        assertTrue(sharedP99 > 100, "two workers sharing 2 cores are one worker's capacity, overloaded at 1.5x: " + sharedP99);
    }

    /**
     * The serving path's own cost per batch is added to every pass of that size: a batch size between two listed ones
     * takes the smaller's, one below all the smallest's. With 0.25 ms of path on a 1 ms pass, M/D/1 at the same arrival
     * rate waits as a 1.25 ms server does (the same p99): the simulator priced with the pass alone is optimistic by exactly that.
     */
    @Test
    void theServingPathsCostIsAddedToEveryPass() {
        org.HdrHistogram.Histogram one = io.inferbench.measure.PassRecorder.newHistogram();
        org.HdrHistogram.Histogram four = io.inferbench.measure.PassRecorder.newHistogram();
        for (int i = 0; i < 100; i++) {
            one.recordValue(1_000_000);
            four.recordValue(2_000_000);
        }
        ServiceTimes pass = new ServiceTimes(java.util.Map.of(1, one, 4, four));
        ServiceTimes served = pass.plusPath(java.util.Map.of(1, 250_000L, 4, 400_000L));
        assertEquals(pass.quantile(1, 0.5) + 250_000, served.quantile(1, 0.5));
        assertEquals(pass.quantile(3, 0.5) + 250_000, served.quantile(3, 0.5), "3 rows take 1 row's path");
        assertEquals(pass.quantile(4, 0.99) + 400_000, served.quantile(4, 0.99));
        assertEquals(pass.quantile(8, 0.5) + 400_000, served.quantile(8, 0.5), "beyond the largest: the largest's");
        assertEquals(0, pass.pathNs(1), "no path unless given");

        long[] arrivals = Arrivals.POISSON.schedule(600, 200, 11);
        double withPath = new QueueSimulator(constantServiceTimes(SERVICE_NS).plusPath(java.util.Map.of(1, 250_000L)), 1)
                .simulate(arrivals, ServingPolicy.unbatched(1), 5).percentileMs(99);
        double asSlowerServer = new QueueSimulator(constantServiceTimes(1_250_000), 1)
                .simulate(arrivals, ServingPolicy.unbatched(1), 5).percentileMs(99);
        assertEquals(asSlowerServer, withPath, 1e-9);
    }

    /**
     * Every pass takes {@code nanos} at batch 1 and 2, through the constructor the sweep's cells use: a histogram holds
     * it to within its resolution (0.05% at 3 significant digits), far inside every tolerance here.
     */
    static ServiceTimes constantServiceTimes(long nanos) {
        org.HdrHistogram.Histogram passes = io.inferbench.measure.PassRecorder.newHistogram();
        passes.recordValue(nanos);
        return new ServiceTimes(java.util.Map.of(1, passes, 2, passes));
    }
}
