package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.measure.LatencySummary;

import java.util.List;
import java.util.Map;

/**
 * {@code run.json}'s {@code workload} section (schema 5): the requests a service sees, how they fall into the buckets,
 * what padding costs, better buckets, and a measured stream of them.
 *
 * @param skippedLines            empty lines of the text, left out
 * @param tokenizeNote            how the ids were obtained (tokenized now, with documents per second, or from the
 *                                cache)
 * @param maxLength               the model's longest input, when it has one; longer requests are truncated to it
 * @param truncatedToMax          requests truncated to {@code maxLength}
 * @param beyondLargestBucket     requests longer than the largest bucket, truncated to it
 * @param lengthHistogram         true lengths in bins, for the plot
 * @param lengthPercentilesTokens p10, p50, p90, p99 and max of the true lengths (after truncation)
 */
@JsonPropertyOrder({"inputs", "requests", "skippedLines", "tokenizeNote", "maxLength", "truncatedToMax",
        "beyondLargestBucket", "buckets", "bucketsFile", "lengthHistogram", "lengthPercentilesTokens", "engines"})
public record WorkloadResult(@JsonUnwrapped Inputs inputs, int requests, int skippedLines, String tokenizeNote,
                             Integer maxLength, int truncatedToMax, int beyondLargestBucket, List<Integer> buckets,
                             String bucketsFile, List<Bin> lengthHistogram,
                             Map<String, Integer> lengthPercentilesTokens, List<EngineWorkload> engines) {

    /** Where the requests came from and what tokenized them, each with its SHA-256. */
    public record Inputs(String source, String sourceSha256, String tokenizer, String tokenizerSha256) {
    }

    /** Requests whose true length is in {@code (fromTokens, toTokens]}. */
    public record Bin(int fromTokens, int toTokens, long requests) {
    }

    /** What the workload costs on one engine, device and model, from its sweep cells and a measured stream. */
    public record EngineWorkload(String backend, String device, String model, String latencyModel, List<BucketStats> buckets,
                                 List<SchemeStats> schemes, List<BatchingStats> lengthAwareBatching, Advisor advisor,
                                 MixedStream mixedStream) {
    }

    /**
     * One bucket: its requests and their padding, and the latency of its shape at batch 1.
     *
     * @param paddingFraction padded token slots over all token slots of the bucket's requests
     * @param measured        the sweep measured this shape (otherwise the latency comes from the seq-scaling fit)
     */
    public record BucketStats(int upperTokens, long requests, double share, double meanTrueLength, double paddingFraction,
                              double p50Ms, double p99Ms, boolean measured) {
    }

    /**
     * A way to shape requests, one at a time: pad all to the longest bucket, pad to the bucket file's buckets, or run each
     * at its exact length.
     *
     * @param wastedComputeShare the share of the latency spent on padding: 1 - sum T(true length) / sum T(padded length),
     *                           T the batch-1 power law of latency against length
     */
    public record SchemeStats(String scheme, double meanLatencyMs, double p99Ms, double requestsPerSecond, double paddingFraction,
                              double wastedComputeShare) {
    }

    /**
     * Batches of {@code batch} requests in arrival order, each padded to its longest member, against the same requests
     * sorted by length within windows of {@code window} arrivals.
     */
    public record BatchingStats(int batch, int window, double arrivalOrderPaddingFraction, double arrivalOrderRequestsPerSecond,
                                double sortedPaddingFraction, double sortedRequestsPerSecond) {
    }

    /**
     * Bucket boundaries that minimise the expected latency per request under the batch-1 cost model (measured p50s
     * joined by straight lines, down to the fixed cost per call at length 0), by dynamic programming over the sorted
     * lengths, for 2 to 5 buckets, against the bucket file's own.
     */
    public record Advisor(String costModel, List<Integer> currentBuckets, double currentExpectedMs, List<Option> options) {
        /**
         * @param extrapolatedBoundaries the boundaries outside the measured lengths, whose cost is extrapolated (below
         *                               the smallest: from the fixed cost per call; above the largest: the last slope);
         *                               measure them before relying on the option
         */
        public record Option(int buckets, List<Integer> boundaries, double expectedMs, double gainPercentOverCurrent,
                             List<Integer> extrapolatedBoundaries) {
        }
    }

    /**
     * A measured run where each pass takes the next request of the workload, at its bucket's shape (batch 1), with its
     * real token ids and a mask that is 0 on the padding.
     *
     * @param passMs      the forward pass alone, as the sweep times it
     * @param endToEndMs  tokenize (text workloads) + prepare + forward + fetch
     * @param stagesMs    each stage on its own
     * @param perBucketMs the forward pass, by bucket
     */
    public record MixedStream(int requests, int warmupRequests, LatencySummary passMs, LatencySummary endToEndMs,
                              Map<String, LatencySummary> stagesMs, Map<Integer, LatencySummary> perBucketMs, String histogramNs) {
    }

    /** This workload with {@code measured} as its engines' streams. */
    public WorkloadResult withEngines(List<EngineWorkload> measured) {
        return new WorkloadResult(inputs, requests, skippedLines, tokenizeNote, maxLength, truncatedToMax,
                beyondLargestBucket, buckets, bucketsFile, lengthHistogram, lengthPercentilesTokens, measured);
    }

    // Each group's fields, read through the group, as before the groups.

    public String source() {
        return inputs.source();
    }

    public String sourceSha256() {
        return inputs.sourceSha256();
    }

    public String tokenizer() {
        return inputs.tokenizer();
    }

    public String tokenizerSha256() {
        return inputs.tokenizerSha256();
    }
}
