package io.inferbench.workload;

import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.TextTokenizer;
import io.inferbench.engine.TokenBatch;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.model.TokenInputs;
import io.inferbench.results.WorkloadResult;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The latency a service would see for this workload, measured: each pass takes the next request (drawn from the workload
 * with a seed), pads it to its bucket (mask 0 on the padding, id 0 there), and runs it at batch 1. A text request is
 * tokenized first, and tokenization is timed as a stage of its own; a lengths-only request gets seeded synthetic ids of
 * its length. Before measuring, each bucket the workload reaches runs {@value #PASSES_PER_BUCKET} times, then
 * {@code warmup} random requests, the same way, all left out (the result's {@code warmupRequests} counts both).
 * Requests are drawn with replacement.
 *
 * <p>Stages, each its own histogram: {@code tokenize} (text workloads), {@code prepare} (input tensors), {@code forward}
 * (the synchronized pass, as the sweep times it), {@code fetch} (reading the output back from the engine's host copy).
 * A session that reads text itself (a user's target) is given each request's text instead, its bucket chosen from the
 * workload's token count: its tokenizing is inside its {@code forward}, whose own stages follow as
 * {@code forward.NAME}.
 * End to end is their sum; for a lengths-only workload it starts after the synthetic ids are made, as a request that
 * arrives as ids would.
 */
public final class MixedStream {
    private MixedStream() {
    }

    /** Warm-up passes per bucket the workload reaches, before the random warm-up requests. */
    static final int PASSES_PER_BUCKET = 3;

    /**
     * The first request of each bucket the workload reaches (after truncation to {@code cap}), in bucket order. Random
     * warm-up requests alone miss a rare bucket: 20 of them miss one that holds 10% of the requests 12% of the time,
     * and its first pass at that shape then lands in the measurement.
     */
    static List<Integer> oneRequestPerBucket(Workload workload, List<Integer> buckets, int cap) {
        Map<Integer, Integer> first = new TreeMap<>();
        for (int i = 0; i < workload.requests(); i++) {
            first.putIfAbsent(BucketAdvisor.bucketOf(Math.min(workload.lengths()[i], cap), buckets), i);
        }
        return List.copyOf(first.values());
    }

    public static WorkloadResult.MixedStream run(InferenceSession session, Workload workload, TextTokenizer tokenizer,
                                                 List<Integer> buckets, Integer maxLength, int requests, int warmup, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int largest = buckets.get(buckets.size() - 1);
        int cap = maxLength == null ? largest : Math.min(maxLength, largest);
        Histogram pass = PassRecorder.newHistogram();
        Histogram endToEnd = PassRecorder.newHistogram();
        Map<String, Histogram> stages = new LinkedHashMap<>();
        // A session that reads text itself (a user's target) is handed the text: its tokenizing is its own, in its forward.
        boolean rawText = workload.hasText() && session.takesText();
        boolean tokenizing = workload.hasText() && !rawText;
        for (String stage : tokenizing ? List.of("tokenize", "prepare", "forward", "fetch") : List.of("prepare", "forward", "fetch")) {
            stages.put(stage, PassRecorder.newHistogram());
        }
        Map<Integer, Histogram> perBucket = new TreeMap<>();
        List<Integer> warm = new java.util.ArrayList<>();
        for (int index : oneRequestPerBucket(workload, buckets, cap)) {
            for (int k = 0; k < PASSES_PER_BUCKET; k++) {
                warm.add(index);
            }
        }
        int unrecorded = warm.size() + warmup;
        try (InferenceSession.Runner runner = session.newRunner()) {
            for (int n = 0; n < unrecorded + requests; n++) {
                int index = n < warm.size() ? warm.get(n) : random.nextInt(workload.requests());
                long[] ids;
                long start;
                if (rawText) {
                    ids = new long[workload.lengths()[index]];
                    start = System.nanoTime();
                } else if (tokenizing) {
                    start = System.nanoTime();
                    ids = tokenizer.encode(workload.texts().get(index));
                } else {
                    // Synthetic ids stand in for a request that arrives as ids: making them is not the service's work.
                    ids = TokenInputs.tokenIds(1, workload.lengths()[index], seed + index);
                    start = System.nanoTime();
                }
                long tokenized = System.nanoTime();
                int length = Math.min(ids.length, cap);
                int bucket = BucketAdvisor.bucketOf(length, buckets);
                long[] padded = new long[bucket];
                long[] mask = new long[bucket];
                System.arraycopy(ids, 0, padded, 0, length);
                java.util.Arrays.fill(mask, 0, length, 1L);
                TokenBatch batch = new TokenBatch(1, bucket, padded, mask);
                runner.prepare(rawText ? batch.withTexts(List.of(workload.texts().get(index))) : batch);
                long prepared = System.nanoTime();
                runner.forward();
                long forwarded = System.nanoTime();
                runner.firstOutput();
                long fetched = System.nanoTime();
                if (n < unrecorded) {
                    continue;
                }
                if (tokenizing) {
                    stages.get("tokenize").recordValue(Math.max(1, tokenized - start));
                }
                runner.lastPhasesNs().forEach((phase, ns) -> stages.computeIfAbsent("forward." + phase,
                        k -> PassRecorder.newHistogram()).recordValue(Math.max(1, ns)));
                stages.get("prepare").recordValue(Math.max(1, prepared - tokenized));
                stages.get("forward").recordValue(Math.max(1, forwarded - prepared));
                stages.get("fetch").recordValue(Math.max(1, fetched - forwarded));
                pass.recordValue(Math.max(1, forwarded - prepared));
                endToEnd.recordValue(Math.max(1, fetched - start));
                perBucket.computeIfAbsent(bucket, b -> PassRecorder.newHistogram()).recordValue(Math.max(1, forwarded - prepared));
            }
        }
        Map<String, LatencySummary> stageSummaries = new LinkedHashMap<>();
        stages.forEach((name, h) -> stageSummaries.put(name, LatencySummary.of(h)));
        Map<Integer, LatencySummary> bucketSummaries = new TreeMap<>();
        perBucket.forEach((b, h) -> bucketSummaries.put(b, LatencySummary.of(h)));
        return new WorkloadResult.MixedStream(requests, unrecorded, LatencySummary.of(pass), LatencySummary.of(endToEnd),
                stageSummaries, bucketSummaries, HistogramCodec.encode(pass));
    }
}
