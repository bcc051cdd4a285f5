package io.inferbench.serve;

import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The unrecorded warm-up before a model's first load point: every shape a measured point can run, so none of them pays
 * its first-pass cost (the engine plans kernels and allocates per input shape) inside a measurement.
 *
 * <ul>
 *   <li>Without a workload: every batch size the batcher can form, 1 to {@code maxBatch} requests.</li>
 *   <li>With one: every batch size at every bucket a request of the workload pads to (one request of that bucket,
 *       repeated to fill the batch).</li>
 * </ul>
 * Each shape runs {@value #PASSES_PER_SHAPE} passes at least and until it has had its share of {@code seconds}, so a
 * slow model's warm-up stays short. The passes
 * go through the same path as served requests ({@link Batches#execute}), on an executor of the worker's kind.
 */
final class ServingWarmup {
    /** Passes per shape at least: the first {@value #UNRECORDED_PASSES} pay its first-pass cost, the rest are timed. */
    static final int PASSES_PER_SHAPE = 3;
    /**
     * Timed passes every shape needs before the forecast takes its service times from the warm-up rather than the
     * sweep: fewer (a slow model's warm-up) make a distribution of a handful.
     */
    static final int PASSES_FOR_FORECAST = 20;

    private ServingWarmup() {
    }

    /**
     * The shape of a warm-up batch: how many requests, which workload request (-1 without a workload) fills it, and the
     * bucket it pads to (0 without a workload).
     */
    record Shape(int requests, int workloadIndex, int bucket) {
    }

    /**
     * What the warm-up found: the shapes that failed, and each shape's steady service times (batch start to result:
     * prepare, forward and fetch, as a served batch takes them), by bucket (0 without a workload) and then by requests
     * in the batch. The first {@value #UNRECORDED_PASSES} passes of each shape are left out: they pay its first-pass
     * cost.
     */
    record Result(List<String> failures, Map<Integer, Map<Integer, Histogram>> serviceNs) {
        long passes() {
            return serviceNs.values().stream().flatMap(m -> m.values().stream()).mapToLong(Histogram::getTotalCount).sum();
        }

        /** Whether every one of {@code batchSizes} sizes, at every bucket timed, has enough passes for a forecast. */
        boolean forecastable(int batchSizes) {
            return failures.isEmpty() && !serviceNs.isEmpty() && serviceNs.values().stream().allMatch(m -> m.size() == batchSizes
                    && m.values().stream().allMatch(h -> h.getTotalCount() >= PASSES_FOR_FORECAST));
        }
    }

    static final int UNRECORDED_PASSES = 2;

    /** Every (batch size, bucket) a point can run: one request per bucket the workload reaches, in bucket order. */
    static List<Shape> shapes(int maxBatch, RequestShape inputs) {
        Map<Integer, Integer> requestPerBucket = new LinkedHashMap<>();
        if (!(inputs instanceof RequestInputs w)) {
            requestPerBucket.put(0, -1);
        } else {
            for (int bucket : w.buckets()) {
                for (int i = 0; i < w.workload().requests(); i++) {
                    if (w.bucketOf(i) == bucket) {
                        requestPerBucket.put(bucket, i);
                        break;
                    }
                }
            }
        }
        List<Shape> shapes = new ArrayList<>();
        for (Map.Entry<Integer, Integer> bucket : requestPerBucket.entrySet()) {
            for (int k = 1; k <= Math.max(1, maxBatch); k++) {
                shapes.add(new Shape(k, bucket.getValue(), bucket.getKey()));
            }
        }
        return shapes;
    }

    /**
     * Runs every shape, each at least {@value #PASSES_PER_SHAPE} passes and its share of {@code seconds}. A shape that
     * fails is reported (it fails in its points too, where it is recorded) and the others still run.
     */
    static Result run(BatchExecutor.Factory executors, List<Shape> shapes, double seconds) {
        List<String> failures = new ArrayList<>();
        Map<Integer, Map<Integer, Histogram>> serviceNs = new TreeMap<>();
        long perShapeNs = Math.round(seconds * 1e9 / Math.max(1, shapes.size()));
        try (BatchExecutor executor = executors.create()) {
            for (Shape shape : shapes) {
                Histogram times = PassRecorder.newHistogram();
                long start = System.nanoTime();
                for (int pass = 0; pass < PASSES_PER_SHAPE || System.nanoTime() - start < perShapeNs; pass++) {
                    List<Request> batch = new ArrayList<>(shape.requests());
                    for (int i = 0; i < shape.requests(); i++) {
                        batch.add(new Request(i, System.nanoTime(), shape.workloadIndex()));
                    }
                    Batches.execute(executor, batch);
                    Request first = batch.get(0);
                    if (first.error != null) {
                        failures.add(shape + ": " + first.error);
                        times = null;
                        break;
                    }
                    if (pass >= UNRECORDED_PASSES) {
                        times.recordValue(Math.max(1, first.doneNs - first.batchStartNs));
                    }
                }
                if (times != null && times.getTotalCount() > 0) {
                    serviceNs.computeIfAbsent(shape.bucket(), b -> new TreeMap<>()).put(shape.requests(), times);
                }
            }
        }
        return new Result(failures, serviceNs);
    }
}
