package io.inferbench.serve.generation;

import io.inferbench.results.GenerationServing;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduler on passes of fixed cost and a clock of its own: every time below is worked out by hand from the
 * arrivals, the policy and the costs (a prefill 2 ms whatever it holds, a step 1 ms).
 */
class SchedulerTest {
    private static final long MS = 1_000_000;

    /** Fixed-cost passes on a jumping clock, recording the rows of each pass. */
    static final class FixedPasses implements Passes {
        long now;
        final List<Integer> prefills = new ArrayList<>();
        final List<Integer> steps = new ArrayList<>();
        int rows;
        int pending;
        int failPrefillAt = -1;

        @Override
        public long nowNs() {
            return now;
        }

        @Override
        public void waitUntil(long ns) {
            now = Math.max(now, ns);
        }

        @Override
        public long[] prefill(List<long[]> prompts) {
            if (prefills.size() == failPrefillAt) {
                prefills.add(-1);
                throw new IllegalStateException("injected");
            }
            now += 2 * MS;
            prefills.add(prompts.size());
            pending = prompts.size();
            return new long[prompts.size()];
        }

        @Override
        public void join() {
            rows += pending;
            pending = 0;
        }

        @Override
        public void leave(int[] leaving) {
            rows -= leaving.length;
        }

        @Override
        public long[] step(long[] tokens) {
            assertEquals(rows, tokens.length, "a step runs every row in the batch");
            now += MS;
            steps.add(tokens.length);
            return new long[tokens.length];
        }

        @Override
        public long cacheBytes() {
            return rows * 100L;
        }

        @Override
        public long usedCacheBytes() {
            return rows * 100L;
        }

        @Override
        public void clear() {
            rows = 0;
            pending = 0;
        }
    }

    private static List<LoadRequest> requests(double[] atMs, int[] newTokens) {
        List<LoadRequest> list = new ArrayList<>();
        for (int i = 0; i < atMs.length; i++) {
            list.add(new LoadRequest(i, (long) (atMs[i] * MS), new long[] {1, 2, 3}, newTokens[i]));
        }
        return list;
    }

    private static double ttftMs(LoadRequest r) {
        return (r.tokenNs[0] - r.intendedNs) / (double) MS;
    }

    @Test
    void staticBatchingHoldsArrivalsUntilTheRunningBatchEnds() {
        FixedPasses passes = new FixedPasses();
        List<LoadRequest> rs = requests(new double[] {0, 0.5, 0.6}, new int[] {3, 3, 3});
        Scheduler.Trace trace = new Scheduler(passes, Batching.named("static"), 4, 0).run(rs, 100 * MS);
        // request 0 alone: prefill 0-2, steps 2-3, 3-4; then 1 and 2 together: prefill 4-6, steps 6-7, 7-8
        assertEquals(2.0, ttftMs(rs.get(0)), 1e-9);
        assertEquals(5.5, ttftMs(rs.get(1)), 1e-9);
        assertEquals(5.4, ttftMs(rs.get(2)), 1e-9);
        assertEquals(4 * MS, rs.get(1).prefillStartNs);
        assertEquals(List.of(1, 2), passes.prefills);
        assertEquals(List.of(1, 1, 2, 2), passes.steps);
        assertEquals(8 * MS, rs.get(2).tokenNs[2]);
        assertTrue(trace.requests().stream().allMatch(LoadRequest::done));
    }

    @Test
    void continuousBatchingPrefillsArrivalsBetweenStepsAndTheyJoin() {
        FixedPasses passes = new FixedPasses();
        List<LoadRequest> rs = requests(new double[] {0, 0.5, 0.6}, new int[] {3, 3, 3});
        new Scheduler(passes, Batching.named("continuous"), 4, 0).run(rs, 100 * MS);
        // each iteration admits what waits (one prefill), then steps every running row once. Request 0: prefill 0-2,
        // step 2-3. Requests 1 and 2 arrived meanwhile: prefill 3-5, then the three step together 5-6 (request 0 is done
        // and leaves), and 1 and 2 step 6-7. Static batching gave them 5.5 and 5.4 ms.
        assertEquals(2.0, ttftMs(rs.get(0)), 1e-9);
        assertEquals(4.5, ttftMs(rs.get(1)), 1e-9);
        assertEquals(4.4, ttftMs(rs.get(2)), 1e-9);
        assertEquals(List.of(1, 2), passes.prefills);
        assertEquals(List.of(1, 3, 2), passes.steps);
        assertArrayEquals(new long[] {2 * MS, 3 * MS, 6 * MS}, rs.get(0).tokenNs, "its step waits for the joiners' prefill");
        assertArrayEquals(new long[] {5 * MS, 6 * MS, 7 * MS}, rs.get(1).tokenNs);
    }

    @Test
    void staticBatchingWaitsUpToTheMaxWaitForAFullerBatch() {
        FixedPasses passes = new FixedPasses();
        List<LoadRequest> rs = requests(new double[] {0, 3, 20}, new int[] {1, 1, 1});
        new Scheduler(passes, Batching.named("static"), 2, 5 * MS).run(rs, 100 * MS);
        // 0 waits for 1 (3 ms < 5): both prefill at 3; 2 waits its whole 5 ms alone, the last request: it goes at once
        assertEquals(5.0, ttftMs(rs.get(0)), 1e-9);
        assertEquals(2.0, ttftMs(rs.get(1)), 1e-9);
        assertEquals(2.0, ttftMs(rs.get(2)), 1e-9, "nothing more will arrive, so the last request does not wait");
        assertEquals(List.of(2, 1), passes.prefills);
    }

    @Test
    void aStaticBatchKeepsItsFinishedRowsUntilItsLongestIsDone() {
        FixedPasses passes = new FixedPasses();
        List<LoadRequest> rs = requests(new double[] {0, 0}, new int[] {1, 4});
        new Scheduler(passes, Batching.named("static"), 2, 0).run(rs, 100 * MS);
        assertEquals(List.of(2, 2, 2), passes.steps, "the one-token row rides along for the other's three steps");
        assertEquals(1, rs.get(0).tokens);
    }

    @Test
    void whatIsNotDoneAtTheDrainLimitIsUnfinishedAndCountsThere() {
        FixedPasses passes = new FixedPasses();
        List<LoadRequest> rs = requests(new double[] {0, 0.1}, new int[] {50, 50});
        Scheduler.Trace trace = new Scheduler(passes, Batching.named("static"), 1, 0).run(rs, 10 * MS);
        assertFalse(rs.get(0).done());
        assertEquals(-1, rs.get(1).prefillStartNs, "the second never started");
        PointSummary p = new PointSummary(trace, 1, null);
        assertEquals(2, p.requests.unfinished());
        assertTrue(p.requests.overloaded());
        assertEquals(10.1, p.latency.e2eMs().maxMs(), 0.02, "the first counted at the limit: the last send + 10 ms");
    }

    @Test
    void aFailedPassFailsItsRequestsAndServingGoesOn() {
        FixedPasses passes = new FixedPasses();
        passes.failPrefillAt = 0;
        List<LoadRequest> rs = requests(new double[] {0, 5}, new int[] {2, 2});
        Scheduler.Trace trace = new Scheduler(passes, Batching.named("continuous"), 2, 0).run(rs, 100 * MS);
        assertTrue(rs.get(0).failed());
        assertTrue(rs.get(1).done());
        PointSummary p = new PointSummary(trace, 1, null);
        assertEquals(1, p.requests.failed());
        assertTrue(p.requests.firstError().contains("injected"));
        assertEquals(0.5, p.requests.errorRate(), 1e-9);
    }

    @Test
    void tpotIsTheMeanGapAfterTheFirstTokenAndGoodputCountsRequestsWithinEveryBound() {
        FixedPasses passes = new FixedPasses();
        List<LoadRequest> rs = requests(new double[] {0, 0.5, 0.6}, new int[] {3, 3, 3});
        Scheduler.Trace trace = new Scheduler(passes, Batching.named("continuous"), 4, 0).run(rs, 100 * MS);
        // tokens (ms): request 0 at 2, 3, 6; requests 1 and 2 at 5, 6, 7. TPOT: (6 - 2) / 2 = 2 and (7 - 5) / 2 = 1
        PointSummary p = new PointSummary(trace, 2.0, new GenerationLoadOptions.Slo(3.0, 1.8, 0));
        assertEquals(1.0, p.latency.tpotMs().p50Ms(), 0.01);
        assertEquals(2.0, p.latency.tpotMs().maxMs(), 0.01);
        assertEquals(6, p.latency.itlMs().count(), "two gaps for each of three requests");
        assertEquals(3.0, p.latency.itlMs().maxMs(), 0.01, "request 0's second gap, across the joiners' prefill");
        GenerationServing.Slo slo = p.slo;
        // request 0: TTFT 2 <= 3 but TPOT 2 > 1.8; requests 1, 2: TTFT 4.5 and 4.4 > 3: none good
        assertEquals(0, slo.goodputRps(), 1e-9);
        assertFalse(slo.met());
        PointSummary loose = new PointSummary(trace, 2.0, new GenerationLoadOptions.Slo(5.0, null, 0));
        assertEquals(1.5, loose.slo.goodputRps(), 1e-9, "three good requests over 2 s");
        assertTrue(loose.slo.met());
        assertEquals(List.of(1, 3, 2), trace.steps().stream().map(Scheduler.StepSample::rows).toList());
        assertEquals(2.0, p.formed.meanStepRows(), 1e-9);
        assertNull(new PointSummary(trace, 2.0, null).slo);
    }

    @Test
    void policiesAreFoundByNameFromTheirServiceFile() {
        assertEquals(java.util.List.of("static", "continuous"), Batching.all().stream().map(Batching::label).toList());
        assertEquals(java.util.List.of("continuous", "static"),
                Batching.parseAll("continuous, static,continuous").stream().map(Batching::label).toList());
        String message = org.junit.jupiter.api.Assertions.assertThrows(io.inferbench.BenchmarkException.class,
                () -> Batching.parseAll("static,fifo")).getMessage();
        assertTrue(message.contains("unknown policy 'fifo'") && message.contains("static, continuous"), message);
    }
}
