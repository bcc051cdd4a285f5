package io.inferbench.serve;

import io.inferbench.engine.TextTokenizer;
import io.inferbench.workload.BucketAdvisor;
import io.inferbench.workload.Workload;

import java.util.List;
import java.util.SplittableRandom;

/**
 * What requests carry when a workload is given: each request is one of the workload's (drawn with a seed), with its true
 * length and, for text, its text, tokenized by the worker that serves it (timed as the {@code tokenize} stage). A batch is
 * padded to the bucket of its longest member, the mask 0 on the padding. Without a workload, every request is a fixed
 * {@code [samples, seq]} of seeded ids.
 *
 * @param buckets   the sweep's sequence lengths, in increasing order
 * @param maxLength the model's longest input, or null
 * @param tokenizer for text workloads, the workload's tokenizer (thread-safe); null otherwise
 */
public record RequestInputs(Workload workload, List<Integer> buckets, Integer maxLength, TextTokenizer tokenizer)
        implements RequestShape {
    /** One workload request per request. */
    @Override
    public int rowsPerRequest() {
        return 1;
    }

    /** Which workload request each of {@code count} requests is, from a seed: the same for a point and its prediction. */
    public int[] mix(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] mix = new int[count];
        for (int i = 0; i < count; i++) {
            mix[i] = random.nextInt(workload.requests());
        }
        return mix;
    }

    /** A request's length once truncated to the model's maximum and the largest bucket. */
    public int cappedLength(int workloadIndex) {
        int cap = buckets.get(buckets.size() - 1);
        if (maxLength != null) {
            cap = Math.min(cap, maxLength);
        }
        return Math.min(workload.lengths()[workloadIndex], cap);
    }

    /** The bucket a request is padded to on its own. */
    public int bucketOf(int workloadIndex) {
        return BucketAdvisor.bucketOf(cappedLength(workloadIndex), buckets);
    }
}
