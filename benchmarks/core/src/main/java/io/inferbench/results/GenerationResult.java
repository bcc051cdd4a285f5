package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.analysis.Regime;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.measure.LatencySummary;

import java.util.List;

/**
 * {@code run.json}'s {@code generation}: autoregressive generation of decoders ({@code -Dbench.generate=N}), present only
 * in a generation run.
 *
 * @param newTokens          tokens generated per sequence: one prefill, then {@code newTokens - 1} decode steps
 * @param kvCacheConvention  what {@code kvCacheBytes} counts
 * @param handOff            what the cache hand-off time spans on each engine
 * @param rounds             how many times each cell was measured ({@code bench.forks}), each round in fresh fork JVMs
 * @param cells              one per engine, device, model, prompt length and batch
 * @param fits               each phase's latency against batch, with the sweep's rule and thresholds
 * @param agreement          greedy tokens of each engine against the reference (the double-precision model, for built-ins)
 * @param memory             the cache's size per batch and context, and the largest that fits a memory budget
 * @param failures           each cell that failed, by its id, with why (the forks' errors, as the sweep's failed cells
 *                           have them); its measurements are not in {@code cells}
 * @param sampling           how each token was picked ({@code -Dbench.sampling}): {@code greedy}, or
 *                           {@code temperature=T[,topK=K][,topP=P]} from a random seeded per generation; the agreement
 *                           is greedy either way (an untimed greedy generation where the timed ones sample); null in
 *                           runs before it, which were greedy
 */
public record GenerationResult(int newTokens, String kvCacheConvention, String handOff, int rounds, List<Cell> cells,
                               List<Fit> fits, List<TokenAgreement> agreement, List<CacheSize> memory, List<String> failures,
                               String sampling) {

    /**
     * One generation cell. Its fields are grouped by concern (which cell, its counts, its phases' latency, its
     * throughput and cache, the phases on the roofline, an encoder-decoder's encoder) and written flat in
     * {@code run.json} ({@link JsonUnwrapped}); an accessor per field reads through the groups.
     *
     * @param forkRuns      each kept fork, in round order: its JVM, its first generation at the shape, why its warm-up
     *                      ended and its measurement stopped, its memory (as a sweep cell's)
     * @param departedForks forks set aside and measured again in a fresh JVM, in none of the numbers above; null when
     *                      none was
     * @param pickMs        every pick alone (the first token's and each step's, which {@code ttftMs} and {@code stepMs}
     *                      include): the post-processing per token; null in runs before it
     * @param decoderFeeding how the engine fed and read the decoder, as its session says: the files an export folder runs
     *                      and the branch flag of a merged one among it; null in runs before it
     */
    @JsonPropertyOrder({"target", "counts", "latency", "throughput", "rooflines", "forkRuns", "departedForks", "pickMs",
            "decoderFeeding", "encoder"})
    public record Cell(@JsonUnwrapped Target target, @JsonUnwrapped Counts counts, @JsonUnwrapped Latency latency,
                       @JsonUnwrapped Throughput throughput, @JsonUnwrapped Rooflines rooflines, List<CellFork> forkRuns,
                       List<DepartedFork> departedForks, LatencySummary pickMs, String decoderFeeding,
                       @JsonUnwrapped Encoder encoder) {

        /** A group is never null (an absent one reads back as every field null, so it is written as one). */
        public Cell {
            encoder = encoder == null ? Encoder.NONE : encoder;
        }

        /**
         * Which cell.
         *
         * @param seqLen the prompt's length
         */
        public record Target(String backend, String device, String model, int seqLen, int batch, int newTokens) {
        }

        /**
         * @param generations       measured generations, all rounds
         * @param warmupGenerations warm-up generations, all rounds (never in the results)
         * @param stops             how each round's warm-up ended and its measurement stopped
         */
        public record Counts(long generations, long warmupGenerations, List<String> stops) {
        }

        /**
         * @param ttftMs              time to first token: prefill pass and the first pick
         * @param prefillMs           the prefill pass alone
         * @param stepMs              every decode step (pass and pick), of every measured generation
         * @param handOffMs           from one step's tokens to the next step's inputs
         * @param stepP50MsByPosition the decode steps' p50 at each position (prompt + 1 …)
         */
        public record Latency(LatencySummary ttftMs, LatencySummary prefillMs, LatencySummary stepMs,
                              LatencySummary handOffMs, List<Double> stepP50MsByPosition) {
        }

        /**
         * @param tokensPerSecondPerSequence newTokens over the p50 generation
         * @param tokensPerSecond            the same for the whole batch
         * @param kvCacheBytes               the cache after the last step ({@link GenerationResult#kvCacheConvention})
         */
        public record Throughput(double tokensPerSecondPerSequence, double tokensPerSecond, long kvCacheBytes) {
        }

        /**
         * @param prefillRoofline the prefill at its p50 against the measured roofs; null when the work is not counted
         * @param stepRoofline    the decode step at the last position's p50 against the measured roofs
         */
        public record Rooflines(PhaseRoofline prefillRoofline, PhaseRoofline stepRoofline) {
        }

        /**
         * An encoder-decoder's encoder; every field null for a decoder alone.
         *
         * @param encodeMs                 the encoder pass (inside {@code ttftMs})
         * @param crossAttentionCacheBytes the cross-attention caches, within {@code kvCacheBytes}: computed by the first
         *                                 decoder pass over the source, fixed after
         * @param encodeRoofline           the encoder pass at its p50 against the measured roofs
         */
        public record Encoder(LatencySummary encodeMs, Long crossAttentionCacheBytes, PhaseRoofline encodeRoofline) {
            static final Encoder NONE = new Encoder(null, null, null);
        }

        // Each group's fields, read through the group, as before the groups.

        public String backend() {
            return target.backend();
        }

        public String device() {
            return target.device();
        }

        public String model() {
            return target.model();
        }

        public int seqLen() {
            return target.seqLen();
        }

        public int batch() {
            return target.batch();
        }

        public int newTokens() {
            return target.newTokens();
        }

        public long generations() {
            return counts.generations();
        }

        public long warmupGenerations() {
            return counts.warmupGenerations();
        }

        public List<String> stops() {
            return counts.stops();
        }

        public LatencySummary ttftMs() {
            return latency.ttftMs();
        }

        public LatencySummary prefillMs() {
            return latency.prefillMs();
        }

        public LatencySummary stepMs() {
            return latency.stepMs();
        }

        public LatencySummary handOffMs() {
            return latency.handOffMs();
        }

        public List<Double> stepP50MsByPosition() {
            return latency.stepP50MsByPosition();
        }

        public double tokensPerSecondPerSequence() {
            return throughput.tokensPerSecondPerSequence();
        }

        public double tokensPerSecond() {
            return throughput.tokensPerSecond();
        }

        public long kvCacheBytes() {
            return throughput.kvCacheBytes();
        }

        public PhaseRoofline prefillRoofline() {
            return rooflines.prefillRoofline();
        }

        public PhaseRoofline stepRoofline() {
            return rooflines.stepRoofline();
        }

        public LatencySummary encodeMs() {
            return encoder.encodeMs();
        }

        public Long crossAttentionCacheBytes() {
            return encoder.crossAttentionCacheBytes();
        }

        public PhaseRoofline encodeRoofline() {
            return encoder.encodeRoofline();
        }
    }

    /**
     * One phase of one cell on the roofline.
     *
     * @param flops          FLOPs of the pass, counted from the model's shape
     * @param bytes          bytes the pass must move at least: every weight once, and the key/value cache it reads
     * @param percentOfFlopRoof achieved FLOP/s over the measured float32 roof
     * @param percentOfBandwidth achieved bytes/s over the memory roof (the machine's; the engine's own figure in runs before it)
     * @param rooflineClass  the profile's class ({@code memory-bound}, {@code compute-bound}, ...)
     * @param reason         why
     */
    public record PhaseRoofline(double flops, double bytes, Double intensity, Double percentOfFlopRoof,
                                Double percentOfBandwidth, String rooflineClass, String reason) {
    }

    /**
     * A phase's latency against batch.
     *
     * @param phase {@code prefill} (its pass's p50), {@code decode} (the step's p50) or {@code encode} (an
     *              encoder-decoder's encoder pass's p50)
     * @param rho   the marginal cost of a sample over the cost of a batch of one, as the sweep's fits
     */
    @JsonPropertyOrder({"series", "phase", "batches", "p50Ms", "regime", "borderline", "rho", "rhoLow", "rhoHigh",
            "fixedCostMs", "marginalCostMsPerSample", "reason"})
    public record Fit(@JsonUnwrapped SeriesKey series, String phase, List<Integer> batches, List<Double> p50Ms,
                      Regime regime, Boolean borderline, Double rho, Double rhoLow, Double rhoHigh, Double fixedCostMs,
                      Double marginalCostMsPerSample, String reason) implements SeriesKey.Named {
    }

    /**
     * The greedy tokens of a candidate against a reference, for one prompt length and batch.
     *
     * @param firstMismatchStep the first token index (0 is the prefill's) where any sequence differs; null when all match
     */
    public record TokenAgreement(String reference, String candidate, String model, int seqLen, int batch, int newTokens,
                                 boolean tokensMatch, Integer firstMismatchStep) {
    }

    /**
     * The cache at one batch and context.
     *
     * @param bytesPerPosition   what one more position costs at this batch
     * @param maxContextInBudget with {@code -Dbench.memoryBudgetMb}: the longest context (positions) whose cache fits in the
     *                           budget beside the process's largest resident set measured with its models loaded; null
     *                           without a budget
     */
    public record CacheSize(String model, int batch, long contextPositions, long bytes, long bytesPerPosition,
                            Long maxContextInBudget) {
    }
}
