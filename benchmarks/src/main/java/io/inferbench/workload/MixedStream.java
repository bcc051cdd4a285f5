package io.inferbench.workload;

import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.TextTokenizer;
import io.inferbench.backend.TokenBatch;
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
 * its length. The first {@code warmup} requests are run the same way and left out.
 *
 * <p>Stages, each its own histogram: {@code tokenize} (text workloads), {@code prepare} (input tensors), {@code forward}
 * (the synchronized pass, as the sweep times it), {@code fetch} (reading the output back from the engine's host copy).
 * End to end is their sum.
 */
public final class MixedStream {
    private MixedStream() {
    }

    public static WorkloadResult.MixedStream run(InferenceSession session, Workload workload, TextTokenizer tokenizer,
                                                 List<Integer> buckets, Integer maxLength, int requests, int warmup, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int largest = buckets.get(buckets.size() - 1);
        int cap = maxLength == null ? largest : Math.min(maxLength, largest);
        Histogram pass = PassRecorder.newHistogram();
        Histogram endToEnd = PassRecorder.newHistogram();
        Map<String, Histogram> stages = new LinkedHashMap<>();
        for (String stage : workload.hasText() ? List.of("tokenize", "prepare", "forward", "fetch") : List.of("prepare", "forward", "fetch")) {
            stages.put(stage, PassRecorder.newHistogram());
        }
        Map<Integer, Histogram> perBucket = new TreeMap<>();
        try (InferenceSession.Runner runner = session.newRunner()) {
            for (int n = 0; n < warmup + requests; n++) {
                int index = random.nextInt(workload.requests());
                long start = System.nanoTime();
                long[] ids;
                if (workload.hasText()) {
                    ids = tokenizer.encode(workload.texts().get(index));
                } else {
                    ids = TokenInputs.tokenIds(1, workload.lengths()[index], seed + index);
                }
                long tokenized = System.nanoTime();
                int length = Math.min(ids.length, cap);
                int bucket = BucketAdvisor.bucketOf(length, buckets);
                long[] padded = new long[bucket];
                long[] mask = new long[bucket];
                System.arraycopy(ids, 0, padded, 0, length);
                java.util.Arrays.fill(mask, 0, length, 1L);
                runner.prepare(new TokenBatch(1, bucket, padded, mask));
                long prepared = System.nanoTime();
                runner.forward();
                long forwarded = System.nanoTime();
                runner.firstOutput();
                long fetched = System.nanoTime();
                if (n < warmup) {
                    continue;
                }
                if (workload.hasText()) {
                    stages.get("tokenize").recordValue(Math.max(1, tokenized - start));
                }
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
        return new WorkloadResult.MixedStream(requests, warmup, LatencySummary.of(pass), LatencySummary.of(endToEnd),
                stageSummaries, bucketSummaries, HistogramCodec.encode(pass));
    }
}
