package io.inferbench.serve;

import io.inferbench.results.SlaBoundary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rate and policy a soak and an ablation run at: the largest rate asked, else 0.8 of the best SLA boundary. */
class SustainedLoadTest {
    private static SlaBoundary boundary(String policy, int workers, Double maxWaitMs, int maxBatch, Double maxRateRps) {
        return new SlaBoundary(new SlaBoundary.Searched("onnxruntime", "cpu", "tiny", policy, workers, maxWaitMs, maxBatch, 20),
                new SlaBoundary.Found(maxRateRps, 1.0, 15.0, 1.0, true, SlaBoundary.MEASURED, false, 3.33),
                new SlaBoundary.Forecast(null, null), List.of(), null, null, null);
    }

    @Test
    void theLargestRateAskedWinsWithOneUnbatchedWorker() {
        SustainedLoad load = SustainedLoad.choose(List.of(50.0, 200.0, 100.0),
                List.of(boundary("workers 2", 2, null, 1, 900.0)));
        assertEquals(200, load.rateRps());
        assertEquals(ServingPolicy.unbatched(1), load.policy());
        assertTrue(load.source().contains("largest -Dbench.rate"), load.source());
    }

    /** Without rates: 0.8 of the boundary of the policy that carried the most, with that policy's batcher and workers. */
    @Test
    void withoutRatesItRunsAtAFractionOfTheBestBoundaryWithItsPolicy() {
        SustainedLoad load = SustainedLoad.choose(List.of(), List.of(boundary("no batching", 1, null, 1, 500.0),
                boundary("batch<=8 wait 5 ms", 1, 5.0, 8, 1000.0), boundary("workers 2", 2, null, 1, null)));
        assertEquals(800, load.rateRps(), 1e-9);
        assertEquals(new ServingPolicy(1, 8, 5.0), load.policy());
        assertTrue(load.source().contains("0.8 of the SLA boundary of 1000.0 requests/s (batch<=8 wait 5 ms)"), load.source());
    }

    @Test
    void noBoundaryMeansNothingToRunAtAndSaysWhy() {
        SustainedLoad load = SustainedLoad.choose(List.of(), List.of(boundary("no batching", 1, null, 1, null)));
        assertNull(load.policy());
        assertTrue(load.source().contains("no rate met the SLA") && load.source().contains("-Dbench.rate"), load.source());
    }
}
