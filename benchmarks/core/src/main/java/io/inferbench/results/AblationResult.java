package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;
import java.util.Map;

/**
 * {@code run.json}'s {@code serving.ablation[]}: the same open-loop load, on the same seeded arrivals, run again with one
 * part of the request's path replaced at a time ({@code -Dbench.ablation=true}), and what each part costs by
 * difference, set beside the stage breakdown of the full run.
 *
 * @param policy            the serving policy's label
 * @param rateRps           the arrival rate every part ran at
 * @param rateSource        where it came from
 * @param seconds           how long each part sent requests
 * @param parts             {@code full} first, then each replacement, then {@code full (repeat)}: the full path again, to
 *                          show how far the machine moved while the parts ran
 * @param costs             each replaced part's cost: the full run's latency less the replacement's
 * @param harness           what the harness alone costs a request: the no-op engine's latency, split; null when it
 *                          completed nothing
 * @param skipped           the replacements not run, each with why (fixed tokens need a text workload)
 */
public record AblationResult(String backend, String device, String model, String policy, double rateRps,
                             String rateSource, double seconds, List<Part> parts, List<Cost> costs, Harness harness,
                             List<String> skipped) {
    public static final String FULL = "full";
    public static final String FULL_REPEAT = "full (repeat)";
    public static final String NOOP_ENGINE = "noop-engine";
    public static final String FIXED_TOKENS = "fixed-tokens";
    public static final String OUTPUTS_UNREAD = "outputs-unread";

    /**
     * One run of the load.
     *
     * @param replaced    what was replaced, in words; null for the full path
     * @param meanMs      latency from intended send time, mean (beside the percentiles, never instead of them)
     * @param meanStdErrorMs the mean's standard error: the latencies' standard deviation over the square root of the
     *                    requests completed (HdrHistogram's, at its recording precision)
     * @param stageMeansMs each stage's mean, ms, as a load point's {@code stagesMs}
     */
    public record Part(String name, String replaced, long sent, long completed, long failed, double errorRate,
                       Double meanMs, Double meanStdErrorMs, Double p50Ms, Double p90Ms, Double p99Ms, Double p999Ms,
                       Double maxMs, Map<String, Double> stageMeansMs) {
    }

    /**
     * The harness and serving path alone, from the no-op engine's run: what inferbench itself adds to every request's
     * latency at this rate, split into its parts (each a mean over the no-op engine's requests).
     *
     * @param meanMs             the no-op engine's latency from intended send time, mean: the three parts below
     * @param generatorLagMeanMs the load generator's lateness (sent less intended): the machine waking its thread late
     * @param queueMeanMs        waiting for the worker to finish the requests before it ({@code workerWait})
     * @param tokenizeMeanMs     tokenizing the batch's texts, which the no-op engine keeps (text workloads; null otherwise)
     * @param pathMeanMs         the rest: the hand-off to the worker, the host inputs and the outputs' split; the
     *                           harness's own cost per request
     * @param p99Ms              the no-op engine's p99 from intended send time
     */
    public record Harness(double meanMs, double generatorLagMeanMs, double queueMeanMs, Double tokenizeMeanMs,
                          double pathMeanMs, double p99Ms) {
    }

    /**
     * What one part of the path costs per request, by difference and by the stage breakdown.
     *
     * @param removed      what the replacement leaves out, in words
     * @param part         the replacement's part name
     * @param difference   the cost by difference, written flat in run.json; {@link Difference#NONE} when the part
     *                     completed no request
     * @param stages       the stages of the full run that hold this part
     * @param stageMeanMs  their means added up (for the no-op engine, less what the no-op path keeps of them)
     * @param fullDriftMs  the full path's own move between its two runs (repeat less first, mean): a difference smaller
     *                     than this is within the machine's drift
     * @param agree        whether the two readings agree: the stages' figure lies in the difference's interval, or within
     *                     0.05 ms or 25% of it
     * @param reading      where and why they disagree, or that they agree
     */
    public record Cost(String removed, String part, @JsonUnwrapped Difference difference, List<String> stages,
                       Double stageMeanMs, Double fullDriftMs, boolean agree, String reading) {

        /** The difference is never null (an absent group reads back as every field null). */
        public Cost {
            difference = difference == null ? Difference.NONE : difference;
        }

        public Double meanMs() {
            return difference.meanMs();
        }

        public Double meanLowMs() {
            return difference.meanLowMs();
        }

        public Double meanHighMs() {
            return difference.meanHighMs();
        }

        public boolean resolved() {
            return difference.resolved();
        }

        public Double p50Ms() {
            return difference.p50Ms();
        }

        public Double p99Ms() {
            return difference.p99Ms();
        }
    }

    /**
     * A part's cost by difference: the full path's figure less the replacement's.
     *
     * @param meanMs    full mean less the replacement's mean: the part's cost at this load, queueing it causes included
     * @param meanLowMs the 95% interval of {@code meanMs}, from the three means' standard errors (normal approximation;
     *                  the requests of one part are taken as independent), and {@code meanHighMs} its top
     * @param resolved  whether that interval leaves out 0: otherwise this load cannot tell the part's cost from nothing
     * @param p50Ms     the same for the p50
     * @param p99Ms     the same for the p99
     */
    public record Difference(Double meanMs, Double meanLowMs, Double meanHighMs, boolean resolved, Double p50Ms,
                             Double p99Ms) {
        public static final Difference NONE = new Difference(null, null, null, false, null, null);
    }
}
