package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;

/**
 * {@code run.json}'s {@code serving} section: requests under load against one loaded model, after the batch sweep of
 * the same run (schema 4).
 *
 * @param conditions what the load ran on and how: the shape of a request, the threads that compete on this machine
 * @param points     one entry per measured load point (fixed concurrency, open-loop rate, dynamic batching, and the
 *                   SLA search's steps)
 * @param slaBoundary per policy, the largest arrival rate whose p99 stayed at or under the SLA
 * @param studies     the soak and the ablation, each where it was asked for, written flat in run.json
 * @param generation  generation requests under load ({@code -Dbench.generate} with {@code -Dbench.rate} or
 *                    {@code -Dbench.batching}): a generation run's only serving, the other fields empty; null otherwise
 */
public record ServingResult(List<ServingConditions> conditions, List<LoadPointResult> points, List<SlaBoundary> slaBoundary,
                            Double slaMaxErrorRate, List<ConcurrencyKnee> closedLoopKnee, @JsonUnwrapped Studies studies,
                            GenerationServing generation) {

    /** The studies are never null (an absent group reads back as every field null). */
    public ServingResult {
        studies = studies == null ? Studies.NONE : studies;
    }

    /**
     * What was asked for beside the load points.
     *
     * @param soak     per engine, device and model, the sustained load's windows and trends ({@code -Dbench.soakSeconds});
     *                 null when none was asked for
     * @param ablation per engine, device and model, the load with parts of the path replaced ({@code -Dbench.ablation});
     *                 null when none was asked for
     */
    public record Studies(List<SoakResult> soak, List<AblationResult> ablation) {
        public static final Studies NONE = new Studies(null, null);
    }

    /** Forward passes served (every run before generation under load, and every sweep). */
    public ServingResult(List<ServingConditions> conditions, List<LoadPointResult> points, List<SlaBoundary> slaBoundary,
                         Double slaMaxErrorRate, List<ConcurrencyKnee> closedLoopKnee, List<SoakResult> soak,
                         List<AblationResult> ablation) {
        this(conditions, points, slaBoundary, slaMaxErrorRate, closedLoopKnee, new Studies(soak, ablation), null);
    }

    /** A generation run's serving: generation requests under load alone. */
    public static ServingResult ofGeneration(GenerationServing generation) {
        return new ServingResult(List.of(), List.of(), List.of(), null, null, Studies.NONE, generation);
    }

    /** Without a soak or an ablation (runs before they existed, and runs that asked for neither). */
    public ServingResult(List<ServingConditions> conditions, List<LoadPointResult> points, List<SlaBoundary> slaBoundary,
                         Double slaMaxErrorRate, List<ConcurrencyKnee> closedLoopKnee) {
        this(conditions, points, slaBoundary, slaMaxErrorRate, closedLoopKnee, Studies.NONE, null);
    }

    /** Without the SLA's error-rate bound and the closed loop's knee (runs before they were recorded). */
    public ServingResult(List<ServingConditions> conditions, List<LoadPointResult> points, List<SlaBoundary> slaBoundary) {
        this(conditions, points, slaBoundary, null, null);
    }

    /**
     * Where more closed-loop clients stop paying, for one engine, device and model: the smallest concurrency after which a
     * doubling raises the achieved throughput by less than {@link #KNEE_GAIN_PERCENT} percent.
     *
     * @param concurrency     the knee: the last concurrency worth having; null when every doubling measured still paid
     *                        (or no two measured concurrencies are a doubling apart)
     * @param rps             its achieved throughput
     * @param nextConcurrency the doubling after it, which gained too little
     * @param nextRps         that doubling's throughput
     * @param gainPercent     what the doubling gained, percent
     * @param p99Ms           the knee's p99 from intended start, and {@code nextP99Ms} the doubling's: what the extra
     *                        clients cost in latency
     * @param reason          the rule's reading, in words
     */
    @JsonPropertyOrder({"backend", "device", "model", "knee", "reason"})
    public record ConcurrencyKnee(String backend, String device, String model,
                                  @JsonUnwrapped Knee knee, String reason) {
        /** The group is never null (an absent one reads back as every field null, so it is written as one). */
        public ConcurrencyKnee {
            knee = knee == null ? Knee.NONE : knee;
        }

        /** The figures of the knee and of the doubling after it; {@link #NONE} where no knee was found. */
        public record Knee(Integer concurrency, Double rps, Integer nextConcurrency, Double nextRps, Double gainPercent,
                           Double p99Ms, Double nextP99Ms) {
            public static final Knee NONE = new Knee(null, null, null, null, null, null, null);
        }

        public Integer concurrency() {
            return knee.concurrency();
        }

        public Double rps() {
            return knee.rps();
        }

        public Integer nextConcurrency() {
            return knee.nextConcurrency();
        }

        public Double nextRps() {
            return knee.nextRps();
        }

        public Double gainPercent() {
            return knee.gainPercent();
        }

        public Double p99Ms() {
            return knee.p99Ms();
        }

        public Double nextP99Ms() {
            return knee.nextP99Ms();
        }
    }

    /** A doubling of clients that raises throughput by less than this, percent, is past the knee. */
    public static final double KNEE_GAIN_PERCENT = 10;

    /**
     * How requests were served for one engine, device and model.
     *
     * @param samplesPerRequest rows in one request's input ({@code bench.batch} when a single value is given, else 1)
     * @param sharing           what the worker threads share of the loaded model, and what each has of its own
     * @param cores             logical cores: generator, batcher, workers and the engine's own threads all compete for them
     */
    public record ServingConditions(String backend, String device, String model, String modelSha256, int seqLen,
                                    int samplesPerRequest, String arrivals, long seed, double pointSeconds,
                                    int intraOpThreads, int interOpThreads, int cores, String sharing, String note) {
    }

    public List<SoakResult> soak() {
        return studies.soak();
    }

    public List<AblationResult> ablation() {
        return studies.ablation();
    }
}
