package io.inferbench.results;

import java.util.List;

/**
 * The largest arrival rate a policy carries with its p99 (from intended start) at or under the SLA, found by bisection
 * on the rate after a simulated pre-scan.
 *
 * @param maxRateRps          the largest measured rate that met the SLA, or null when no rate down to the floor did
 * @param sustained           whether that rate's point was paced by the generator and not overloaded
 * @param boundary            what kind of answer {@code maxRateRps} is: {@code measured} (a failing rate lies right above
 *                            it), {@code lower bound} (every rate tried passed, up to the highest the search tries: the
 *                            boundary is at least this) or {@code none down to the floor}
 * @param generatorLimited    the generator, not the model, was the limit at that rate: it sent more than 2% slower than
 *                            the schedule ({@link LoadPointResult#generatorLimited}), so the rate says what the load
 *                            generator could pace on this machine, not what the model carries; null without a boundary
 * @param floorRps            the lowest rate the search measures (200 requests in its longest step)
 * @param predictedMaxRateRps the simulator's estimate, where the live search started
 * @param predictedToMeasured {@code predictedMaxRateRps / maxRateRps}: how far the simulation from the sweep's service
 *                            times was off; null when either is missing
 * @param steps               every live measurement, in order, with its length
 * @param cpuJoulesPerRequest at the boundary's rate: RAPL package joules per completed request; null where not available
 * @param gpuJoulesPerRequest at the boundary's rate: GPU board joules per completed request; null where not sampled
 * @param cpuPercentOfMachine at the boundary's rate: this process's CPU as a share of every core
 * @param servedPassRatio     at the boundary's rate: the batches' service over the forecast's pass at the same batch
 *                            size, median over batches ({@link LoadPointResult.Prediction#servedPassRatio})
 * @param servedPassP99Ratio  at the boundary's rate: those ratios' 99th percentile, the served passes' tail
 * @param resimulatedMaxRateRps the simulated boundary again, every pass drawn as the boundary's point served them (the
 *                            forecast's median at its size times a ratio drawn from that point's): a diagnostic, not a
 *                            forecast (its passes are measured at the boundary). Near the measured
 *                            boundary, the queueing model is right and the forecast's miss is the passes; far from it,
 *                            the model leaves out something of the live loop
 * @param resimulatedToMeasured {@code resimulatedMaxRateRps / maxRateRps}
 * @param speedCheckRatio     the serving path re-timed just before the search at every batch size the policy forms, alone,
 *                            over the sweep's median passes (median over sizes); null where not checked
 * @param loadedCheckRatio    then the policy's own loop for two seconds at {@code loadedCheckRps}, recorded in no point: its
 *                            batches' service over the sweep's median pass at their size (median over batches). The
 *                            forecast, {@code predictedMaxRateRps} included, had its passes scaled by this, or by
 *                            {@code speedCheckRatio} where this is null
 * @param loadedCheckRps      the rate of that loaded check: 0.7x the boundary forecast with {@code speedCheckRatio}
 * @param generatorStalledPercent in that loaded check, the share of its time the load generator was stalled (every
 *                            late send marks it stalled from its intended time to its send, overlaps merged); the
 *                            forecast replays those stalls on its arrivals. Null where not checked
 * @param generatorLongestStallMs the longest of those stalls, in milliseconds; null where not checked
 */
public record SlaBoundary(String backend, String device, String model, String policy, int concurrency, Double maxWaitMs,
                          int maxBatch, double slaP99Ms, Double maxRateRps, Double p50Ms, Double p99Ms, Double meanBatchSize,
                          Boolean sustained, String boundary, Boolean generatorLimited, double floorRps,
                          Double predictedMaxRateRps, Double predictedToMeasured, List<Step> steps, Double cpuJoulesPerRequest,
                          Double gpuJoulesPerRequest, Double cpuPercentOfMachine, Double servedPassRatio,
                          Double servedPassP99Ratio, Double resimulatedMaxRateRps, Double resimulatedToMeasured,
                          Double speedCheckRatio, Double loadedCheckRatio, Double loadedCheckRps,
                          Double generatorStalledPercent, Double generatorLongestStallMs) {

    public SlaBoundary(String backend, String device, String model, String policy, int concurrency, Double maxWaitMs,
                       int maxBatch, double slaP99Ms, Double maxRateRps, Double p50Ms, Double p99Ms, Double meanBatchSize,
                       Boolean sustained, String boundary, Boolean generatorLimited, double floorRps,
                       Double predictedMaxRateRps, Double predictedToMeasured, List<Step> steps, Double cpuJoulesPerRequest,
                       Double gpuJoulesPerRequest, Double cpuPercentOfMachine) {
        this(backend, device, model, policy, concurrency, maxWaitMs, maxBatch, slaP99Ms, maxRateRps, p50Ms, p99Ms, meanBatchSize,
                sustained, boundary, generatorLimited, floorRps, predictedMaxRateRps, predictedToMeasured, steps,
                cpuJoulesPerRequest, gpuJoulesPerRequest, cpuPercentOfMachine, null, null, null, null, null, null, null, null,
                null);
    }

    public SlaBoundary(String backend, String device, String model, String policy, int concurrency, Double maxWaitMs,
                       int maxBatch, double slaP99Ms, Double maxRateRps, Double p50Ms, Double p99Ms, Double meanBatchSize,
                       Boolean sustained, String boundary, Boolean generatorLimited, double floorRps,
                       Double predictedMaxRateRps, Double predictedToMeasured, List<Step> steps) {
        this(backend, device, model, policy, concurrency, maxWaitMs, maxBatch, slaP99Ms, maxRateRps, p50Ms, p99Ms, meanBatchSize,
                sustained, boundary, generatorLimited, floorRps, predictedMaxRateRps, predictedToMeasured, steps, null, null, null);
    }

    public SlaBoundary withResimulation(Double servedPassRatio, Double servedPassP99Ratio, Double resimulatedMaxRateRps) {
        return new SlaBoundary(backend, device, model, policy, concurrency, maxWaitMs, maxBatch, slaP99Ms, maxRateRps, p50Ms,
                p99Ms, meanBatchSize, sustained, boundary, generatorLimited, floorRps, predictedMaxRateRps,
                predictedToMeasured, steps, cpuJoulesPerRequest, gpuJoulesPerRequest, cpuPercentOfMachine, servedPassRatio,
                servedPassP99Ratio, resimulatedMaxRateRps, resimulatedMaxRateRps == null || maxRateRps == null ? null
                        : resimulatedMaxRateRps / maxRateRps, speedCheckRatio, loadedCheckRatio, loadedCheckRps,
                generatorStalledPercent, generatorLongestStallMs);
    }

    /**
     * This boundary with its speed checks: alone, loaded, and the generator's stalls in the loaded check, which the
     * forecast replayed ({@code null}: not checked).
     */
    public SlaBoundary withSpeedCheck(Double alone, Double loaded, Double loadedRps, Double stalledPercent,
                                      Double longestStallMs) {
        return new SlaBoundary(backend, device, model, policy, concurrency, maxWaitMs, maxBatch, slaP99Ms, maxRateRps, p50Ms,
                p99Ms, meanBatchSize, sustained, boundary, generatorLimited, floorRps, predictedMaxRateRps,
                predictedToMeasured, steps, cpuJoulesPerRequest, gpuJoulesPerRequest, cpuPercentOfMachine, servedPassRatio,
                servedPassP99Ratio, resimulatedMaxRateRps, resimulatedToMeasured, alone, loaded, loadedRps, stalledPercent,
                longestStallMs);
    }

    /** {@code boundary}: a failing rate lies right above the boundary. */
    public static final String MEASURED = "measured";
    /** {@code boundary}: every rate tried passed; the boundary is at least this. */
    public static final String LOWER_BOUND = "lower bound";
    /** {@code boundary}: no rate down to the floor met the SLA. */
    public static final String NONE = "none down to the floor";

    /**
     * One step of the search: the rate tried, how long and how many requests it ran, what p99 it got.
     *
     * @param sustained  paced by the generator and not overloaded
     * @param overloaded the model fell behind the rate (requests unfinished at the drain limit, or a growing queue)
     */
    public record Step(double rateRps, double seconds, long requests, Double p99Ms, boolean sustained, boolean overloaded,
                       boolean metSla) {
    }
}
