package io.inferbench.workload;

import io.inferbench.Text;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.model.ModelSource;
import io.inferbench.results.RunResult;
import io.inferbench.results.WorkloadResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What a workload costs, from the sweep's cells alone: how its requests fall into the buckets and what padding costs,
 * three ways of shaping requests one at a time, length-aware batching, and better bucket boundaries.
 *
 * <p>Lengths longer than the model's maximum (when it has one) are truncated to it, and lengths longer than the largest
 * bucket to that bucket; both are counted. P99s of a mix of shapes are taken from {@value #DRAWS_PER_REQUEST} draws per
 * request, each from its shape's measured (or scaled) distribution, seeded.
 */
public final class WorkloadAnalysis {
    static final int DRAWS_PER_REQUEST = 10;
    static final int BINS = 40;
    /** Length-aware batching sorts within windows of this many batches' worth of arrivals. */
    static final int WINDOW_BATCHES = 4;

    private WorkloadAnalysis() {
    }

    /** The requests' lengths after the model's maximum, and how many it truncated. */
    record Capped(int[] lengths, int truncatedToMax) {
        static Capped of(int[] lengths, Integer maxLength) {
            int[] capped = lengths.clone();
            int truncated = 0;
            for (int i = 0; i < capped.length; i++) {
                if (maxLength != null && capped[i] > maxLength) {
                    capped[i] = maxLength;
                    truncated++;
                }
            }
            return new Capped(capped, truncated);
        }
    }

    public static WorkloadResult analyze(Workload workload, List<Integer> buckets, String bucketsFile, Integer maxLength,
                                         RunResult run, List<String> backends, List<String> devices, List<String> models,
                                         long seed) {
        List<Integer> sortedBuckets = buckets.stream().sorted().distinct().toList();
        Capped capped = Capped.of(workload.lengths(), maxLength);
        int largest = sortedBuckets.get(sortedBuckets.size() - 1);
        int beyond = (int) Arrays.stream(capped.lengths()).filter(l -> l > largest).count();
        List<WorkloadResult.EngineWorkload> engines = new ArrayList<>();
        for (Pairing pairing : Pairings.of(backends, devices, models, Pairings.Purpose.FORWARD)) {
            ShapeLatency latency = ShapeLatency.of(run, pairing.engine(), pairing.device(), pairing.model());
            if (latency != null && latency.batches().contains(1)) {
                engines.add(engine(pairing.engine(), pairing.device(), pairing.model(), latency, capped.lengths(), sortedBuckets, seed));
            }
        }
        return new WorkloadResult(new WorkloadResult.Inputs(workload.source(), workload.sourceSha256(),
                workload.tokenizer(),
                workload.tokenizerSha256()), workload.requests(), workload.skippedLines(), workload.tokenizeNote(),
                        maxLength, capped.truncatedToMax(), beyond,
                sortedBuckets, bucketsFile, histogram(capped.lengths()), percentiles(capped.lengths()), engines);
    }

    static WorkloadResult.EngineWorkload engine(String backend, String device, String model, ShapeLatency latency,
                                                int[] lengths, List<Integer> buckets, long seed) {
        List<WorkloadResult.BucketStats> bucketStats = new ArrayList<>();
        for (int bucket : buckets) {
            long count = 0;
            long trueTokens = 0;
            int lower = buckets.indexOf(bucket) == 0 ? 0 : buckets.get(buckets.indexOf(bucket) - 1);
            boolean last = bucket == buckets.get(buckets.size() - 1);
            for (int length : lengths) {
                if (length > lower && (length <= bucket || last)) {
                    count++;
                    trueTokens += Math.min(length, bucket);
                }
            }
            bucketStats.add(new WorkloadResult.BucketStats(bucket, count, count / (double) lengths.length,
                    count == 0 ? 0 : trueTokens / (double) count, count == 0 ? 0 : 1 - trueTokens / (double) (count * bucket),
                    latency.quantileMs(bucket, 1, 0.5), latency.quantileMs(bucket, 1, 0.99), latency.measured(bucket, 1)));
        }
        int largest = buckets.get(buckets.size() - 1);
        List<WorkloadResult.SchemeStats> schemes = List.of(
                scheme("pad every request to the longest bucket (" + largest + ")", lengths, l -> largest, latency, seed),
                scheme("pad to the bucket file's buckets " + buckets, lengths, l -> BucketAdvisor.bucketOf(l, buckets), latency, seed),
                scheme("exact length, no padding (batch 1)", lengths, l -> Math.min(l, largest), latency, seed));
        List<WorkloadResult.BatchingStats> batching = new ArrayList<>();
        for (int batch : latency.batches()) {
            if (batch > 1) {
                batching.add(lengthAwareBatching(lengths, batch, Math.min(largest, Integer.MAX_VALUE), latency));
            }
        }
        return new WorkloadResult.EngineWorkload(backend, device, model, latency.describe(1), bucketStats, schemes, batching,
                advisor(lengths, buckets, latency), null);
    }

    /** Requests one at a time, each at the shape {@code shape(trueLength)}. */
    static WorkloadResult.SchemeStats scheme(String name, int[] lengths, java.util.function.IntUnaryOperator shape,
                                              ShapeLatency latency, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] draws = new double[lengths.length * DRAWS_PER_REQUEST];
        long slots = 0;
        long tokens = 0;
        double trueCost = 0;
        double paddedCost = 0;
        int n = 0;
        for (int length : lengths) {
            int seq = shape.applyAsInt(length);
            for (int d = 0; d < DRAWS_PER_REQUEST; d++) {
                draws[n++] = latency.sampleMs(seq, 1, random);
            }
            slots += seq;
            tokens += Math.min(length, seq);
            trueCost += cost(latency, Math.min(length, seq));
            paddedCost += cost(latency, seq);
        }
        Arrays.sort(draws);
        double mean = Arrays.stream(draws).average().orElse(Double.NaN);
        return new WorkloadResult.SchemeStats(name, mean, draws[(int) Math.ceil(0.99 * draws.length) - 1], 1000 / mean,
                1 - tokens / (double) slots, 1 - trueCost / paddedCost);
    }

    /** The cost of a pass at a length for wasted-compute shares: the batch-1 cost model, or tokens where there is none. */
    private static double cost(ShapeLatency latency, int seq) {
        return latency.priced(1) ? latency.costMs(seq, 1) : seq;
    }

    static WorkloadResult.BatchingStats lengthAwareBatching(int[] lengths, int batch, int cap, ShapeLatency latency) {
        int window = WINDOW_BATCHES * batch;
        double[] arrival = batches(lengths, batch, cap, latency);
        int[] sorted = lengths.clone();
        for (int start = 0; start < sorted.length; start += window) {
            Arrays.sort(sorted, start, Math.min(sorted.length, start + window));
        }
        double[] bySorted = batches(sorted, batch, cap, latency);
        return new WorkloadResult.BatchingStats(batch, window, arrival[0], arrival[1], bySorted[0], bySorted[1]);
    }

    /** {padding fraction, requests per second} of consecutive batches of {@code batch}, each padded to its longest. */
    private static double[] batches(int[] lengths, int batch, int cap, ShapeLatency latency) {
        long slots = 0;
        long tokens = 0;
        double ms = 0;
        for (int start = 0; start < lengths.length; start += batch) {
            int end = Math.min(lengths.length, start + batch);
            int longest = 0;
            for (int i = start; i < end; i++) {
                longest = Math.max(longest, Math.min(lengths[i], cap));
                tokens += Math.min(lengths[i], cap);
            }
            slots += (long) longest * (end - start);
            ms += latency.quantileMs(longest, batch, 0.5);
        }
        return new double[] {1 - tokens / (double) slots, lengths.length * 1000.0 / ms};
    }

    static WorkloadResult.Advisor advisor(int[] lengths, List<Integer> buckets, ShapeLatency latency) {
        if (!latency.priced(1)) {
            return null;
        }
        int largest = buckets.get(buckets.size() - 1);
        int[] inRange = Arrays.stream(lengths).map(l -> Math.min(l, largest)).toArray();
        java.util.function.IntToDoubleFunction cost = seq -> latency.costMs(seq, 1);
        double current = BucketAdvisor.expectedCost(inRange, buckets, cost);
        List<WorkloadResult.Advisor.Option> options = new ArrayList<>();
        for (int k = 2; k <= 5; k++) {
            BucketAdvisor.Choice choice = BucketAdvisor.best(inRange, k, cost);
            options.add(new WorkloadResult.Advisor.Option(choice.boundaries().size(), choice.boundaries(), choice.expectedCost(),
                    100 * (1 - choice.expectedCost() / current),
                    choice.boundaries().stream().filter(b -> latency.extrapolated(b, 1)).toList()));
        }
        return new WorkloadResult.Advisor("expected p50 per request at batch 1, each request padded to its bucket's upper "
                + "bound, priced by " + latency.describe(1) + "; lengths above the largest bucket count as it", buckets,
                current, options);
    }

    static List<WorkloadResult.Bin> histogram(int[] lengths) {
        int max = Arrays.stream(lengths).max().orElse(1);
        int width = Math.max(1, (int) Math.ceil(max / (double) BINS));
        long[] counts = new long[BINS + 1];
        for (int length : lengths) {
            counts[Math.min(BINS, (length - 1) / width)]++;
        }
        List<WorkloadResult.Bin> bins = new ArrayList<>();
        for (int b = 0; b <= BINS; b++) {
            if (b * width < max) {
                bins.add(new WorkloadResult.Bin(b * width, (b + 1) * width, counts[b]));
            }
        }
        return bins;
    }

    static Map<String, Integer> percentiles(int[] lengths) {
        int[] sorted = lengths.clone();
        Arrays.sort(sorted);
        Map<String, Integer> p = new LinkedHashMap<>();
        for (int q : new int[] {10, 50, 90, 99}) {
            p.put("p" + q, sorted[Math.max(0, (int) Math.ceil(q / 100.0 * sorted.length) - 1)]);
        }
        p.put("max", sorted[sorted.length - 1]);
        return p;
    }

    /** One line for the console. */
    public static String summary(WorkloadResult w) {
        return Text.f("[inferbench] workload: %d requests (%s), lengths%s p50 %d, p90 %d, p99 %d, max %d tokens; %d truncated to "
                        + "the model's maximum, %d longer than the largest bucket", w.requests(), w.source(),
                w.maxLength() == null ? "" : " (after truncation to " + w.maxLength() + ")",
                w.lengthPercentilesTokens().get("p50"), w.lengthPercentilesTokens().get("p90"),
                w.lengthPercentilesTokens().get("p99"), w.lengthPercentilesTokens().get("max"), w.truncatedToMax(),
                w.beyondLargestBucket());
    }
}
