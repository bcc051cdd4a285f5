package io.inferbench.serve;

import io.inferbench.workload.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The serving warm-up runs every shape a measured point can: every batch size, at every bucket the workload reaches. */
class ServingWarmupTest {

    /** Records the (requests, bucket) of every batch it is given. */
    private static class Recording implements BatchExecutor {
        private final Set<String> seen;
        private final RequestInputs inputs;
        int size;

        Recording(Set<String> seen, RequestInputs inputs) {
            this.seen = seen;
            this.inputs = inputs;
        }

        @Override
        public void prepare(List<Request> batch) {
            int bucket = 0;
            for (Request r : batch) {
                bucket = Math.max(bucket, inputs == null ? 0 : inputs.bucketOf(r.workloadIndex));
            }
            seen.add(batch.size() + "x" + bucket);
            size = batch.size();
        }

        @Override
        public void forward() {
        }

        @Override
        public void fetch(List<Request> batch) {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void everyBatchSizeTheBatcherCanFormIsWarmed() {
        Set<String> seen = new TreeSet<>();
        ServingWarmup.Result result = ServingWarmup.run(() -> new Recording(seen, null), ServingWarmup.shapes(4, new RequestShape.Fixed(1)), 0.01);
        assertTrue(result.failures().isEmpty(), result.failures().toString());
        assertEquals(Set.of("1x0", "2x0", "3x0", "4x0"), seen, "batch sizes 1 to 4, not batch 1 alone");
        assertEquals(Set.of(1, 2, 3, 4), result.serviceNs().get(0).keySet(), "a service time per batch size");
        assertTrue(result.serviceNs().get(0).values().stream().allMatch(h -> h.getTotalCount()
                >= ServingWarmup.PASSES_PER_SHAPE - ServingWarmup.UNRECORDED_PASSES), "each shape's first passes left out");
    }

    @Test
    void everyBucketTheWorkloadReachesIsWarmedAtEveryBatchSize() {
        // 90% of the requests in bucket 64, 10% in 256, none in 512: a 20-request random warm-up misses 256 one time in 8.
        int[] lengths = new int[100];
        for (int i = 0; i < lengths.length; i++) {
            lengths[i] = i % 10 == 9 ? 200 : 40;
        }
        Workload workload = Workload.lengthsOnly("test", "0", lengths, "lengths");
        RequestInputs inputs = new RequestInputs(workload, List.of(64, 256, 512), null, null);
        Set<String> seen = new TreeSet<>();
        ServingWarmup.run(() -> new Recording(seen, inputs), ServingWarmup.shapes(2, inputs), 0.01);
        assertEquals(Set.of("1x64", "2x64", "1x256", "2x256"), seen, "both buckets the workload reaches, batch 1 and 2");
    }

    @Test
    void aShapeThatFailsIsReportedAndTheOthersStillRun() {
        Set<String> seen = new TreeSet<>();
        List<String> failures = ServingWarmup.run(() -> new Recording(seen, null) {
            @Override
            public void forward() {
                if (size == 3) {
                    throw new IllegalStateException("planted: no batch of 3");
                }
            }
        }, ServingWarmup.shapes(4, new RequestShape.Fixed(1)), 0.01).failures();
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).contains("planted"), failures.get(0));
        assertTrue(seen.contains("4x0"), "batch 4 still warmed");
    }
}
