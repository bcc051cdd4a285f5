package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;

/**
 * The largest arrival rate a policy carries with its p99 (from intended start) at or under the SLA, found by bisection
 * on the rate after a simulated pre-scan. Its fields are grouped by concern (what was searched, what was found, the
 * forecast, the cost, the re-simulation, the speed checks) and written flat in {@code run.json}, as they always were
 * ({@link JsonUnwrapped}); an accessor per field reads through the groups.
 *
 * @param steps every live measurement, in order, with its length
 */
public record SlaBoundary(@JsonUnwrapped Searched searched, @JsonUnwrapped Found found, @JsonUnwrapped Forecast forecast,
                          List<Step> steps, @JsonUnwrapped Cost cost, @JsonUnwrapped Resimulation resimulation,
                          @JsonUnwrapped SpeedCheck speedCheck) {

    /** What was searched: the policy on an engine, device and model, against the SLA. */
    public record Searched(String backend, String device, String model, String policy, int concurrency, Double maxWaitMs,
                           int maxBatch, double slaP99Ms) {
    }

    /**
     * What the search found: the boundary, its point's latency and batches, and what kind of answer it is.
     *
     * @param maxRateRps       the largest measured rate that met the SLA, or null when no rate down to the floor did
     * @param sustained        whether that rate's point was paced by the generator and not overloaded
     * @param boundary         what kind of answer {@code maxRateRps} is: {@code measured} (a failing rate lies right
     *                         above it), {@code lower bound} (every rate tried passed, up to the highest the search
     *                         tries: the boundary is at least this) or {@code none down to the floor}
     * @param generatorLimited the generator, not the model, was the limit at that rate: it sent more than 2% slower
     *                         than the schedule ({@link LoadPointResult#generatorLimited}), so the rate says what the
     *                         load generator could pace on this machine, not what the model carries; null without a
     *                         boundary
     * @param floorRps         the lowest rate the search measures (200 requests in its longest step)
     */
    public record Found(Double maxRateRps, Double p50Ms, Double p99Ms, Double meanBatchSize, Boolean sustained,
                        String boundary, Boolean generatorLimited, double floorRps) {
    }

    /**
     * The simulator's boundary, and how far it was off.
     *
     * @param predictedMaxRateRps the simulator's estimate, where the live search started
     * @param predictedToMeasured {@code predictedMaxRateRps / maxRateRps}: how far the simulation from the sweep's
     *                            service times was off; null when either is missing
     */
    public record Forecast(Double predictedMaxRateRps, Double predictedToMeasured) {
    }

    /**
     * What the boundary's rate cost besides time.
     *
     * @param cpuJoulesPerRequest at the boundary's rate: RAPL package joules per completed request; null where not
     *                            available
     * @param gpuJoulesPerRequest at the boundary's rate: GPU board joules per completed request; null where not
     *                            sampled
     * @param cpuPercentOfMachine at the boundary's rate: this process's CPU as a share of every core
     */
    public record Cost(Double cpuJoulesPerRequest, Double gpuJoulesPerRequest, Double cpuPercentOfMachine) {
        static final Cost NONE = new Cost(null, null, null);
    }

    /**
     * The boundary simulated again with its point's passes as served.
     *
     * @param servedPassRatio       at the boundary's rate: the batches' service over the forecast's pass at the same
     *                              batch size, median over batches ({@link
     *                              LoadPointResult.Prediction#servedPassRatio})
     * @param servedPassP99Ratio    at the boundary's rate: those ratios' 99th percentile, the served passes' tail
     * @param resimulatedMaxRateRps the simulated boundary again, every pass drawn as the boundary's point served them
     *                              (the forecast's median at its size times a ratio drawn from that point's): a
     *                              diagnostic, not a forecast (its passes are measured at the boundary). Near the
     *                              measured boundary, the queueing model is right and the forecast's miss is the
     *                              passes; far from it, the model leaves out something of the live loop
     * @param resimulatedToMeasured {@code resimulatedMaxRateRps / maxRateRps}
     */
    public record Resimulation(Double servedPassRatio, Double servedPassP99Ratio, Double resimulatedMaxRateRps,
                               Double resimulatedToMeasured) {
        static final Resimulation NONE = new Resimulation(null, null, null, null);
    }

    /**
     * The passes re-timed before the search: alone, then under load, with the generator's stalls; each null where not
     * checked. The forecast, {@code predictedMaxRateRps} included, had its passes scaled by {@code loadedCheckRatio}, or
     * by {@code speedCheckRatio} where that is null.
     *
     * @param speedCheckRatio         the serving path alone at every batch size the policy forms, over the sweep's
     *                                median passes (median over sizes)
     * @param loadedCheckRatio        the policy's own loop for two seconds at {@code loadedCheckRps} (0.7x the boundary
     *                                forecast), recorded in no point: its batches' service over the sweep's median pass
     * @param generatorStalledPercent in that check, the share of its time the generator was stalled (a late send marks
     *                                it from its intended time to its send), replayed by the forecast on its arrivals
     * @param generatorLongestStallMs the longest of those stalls
     */
    public record SpeedCheck(Double speedCheckRatio, Double loadedCheckRatio, Double loadedCheckRps,
                             Double generatorStalledPercent, Double generatorLongestStallMs) {
        static final SpeedCheck NONE = new SpeedCheck(null, null, null, null, null);
    }

    public SlaBoundary {
        cost = cost == null ? Cost.NONE : cost;
        resimulation = resimulation == null ? Resimulation.NONE : resimulation;
        speedCheck = speedCheck == null ? SpeedCheck.NONE : speedCheck;
    }

    /** Before its cost was read and its passes checked (and runs before they were). */
    public SlaBoundary(Searched searched, Found found, Forecast forecast, List<Step> steps) {
        this(searched, found, forecast, steps, null, null, null);
    }

    public SlaBoundary withResimulation(Double servedPassRatio, Double servedPassP99Ratio, Double resimulatedMaxRateRps) {
        return new SlaBoundary(searched, found, forecast, steps, cost, new Resimulation(servedPassRatio, servedPassP99Ratio,
                resimulatedMaxRateRps, resimulatedMaxRateRps == null || maxRateRps() == null ? null
                : resimulatedMaxRateRps / maxRateRps()), speedCheck);
    }

    /**
     * This boundary with its speed checks: alone, loaded, and the generator's stalls in the loaded check, which the
     * forecast replayed ({@code null}: not checked).
     */
    public SlaBoundary withSpeedCheck(Double alone, Double loaded, Double loadedRps, Double stalledPercent,
                                      Double longestStallMs) {
        return new SlaBoundary(searched, found, forecast, steps, cost, resimulation,
                new SpeedCheck(alone, loaded, loadedRps, stalledPercent, longestStallMs));
    }

    public String backend() {
        return searched.backend();
    }

    public String device() {
        return searched.device();
    }

    public String model() {
        return searched.model();
    }

    public String policy() {
        return searched.policy();
    }

    public int concurrency() {
        return searched.concurrency();
    }

    public Double maxWaitMs() {
        return searched.maxWaitMs();
    }

    public int maxBatch() {
        return searched.maxBatch();
    }

    public double slaP99Ms() {
        return searched.slaP99Ms();
    }

    public Double maxRateRps() {
        return found.maxRateRps();
    }

    public Double p50Ms() {
        return found.p50Ms();
    }

    public Double p99Ms() {
        return found.p99Ms();
    }

    public Double meanBatchSize() {
        return found.meanBatchSize();
    }

    public Boolean sustained() {
        return found.sustained();
    }

    public String boundary() {
        return found.boundary();
    }

    public Boolean generatorLimited() {
        return found.generatorLimited();
    }

    public double floorRps() {
        return found.floorRps();
    }

    public Double predictedMaxRateRps() {
        return forecast.predictedMaxRateRps();
    }

    public Double predictedToMeasured() {
        return forecast.predictedToMeasured();
    }

    public Double cpuJoulesPerRequest() {
        return cost.cpuJoulesPerRequest();
    }

    public Double gpuJoulesPerRequest() {
        return cost.gpuJoulesPerRequest();
    }

    public Double cpuPercentOfMachine() {
        return cost.cpuPercentOfMachine();
    }

    public Double servedPassRatio() {
        return resimulation.servedPassRatio();
    }

    public Double servedPassP99Ratio() {
        return resimulation.servedPassP99Ratio();
    }

    public Double resimulatedMaxRateRps() {
        return resimulation.resimulatedMaxRateRps();
    }

    public Double resimulatedToMeasured() {
        return resimulation.resimulatedToMeasured();
    }

    public Double speedCheckRatio() {
        return speedCheck.speedCheckRatio();
    }

    public Double loadedCheckRatio() {
        return speedCheck.loadedCheckRatio();
    }

    public Double loadedCheckRps() {
        return speedCheck.loadedCheckRps();
    }

    public Double generatorStalledPercent() {
        return speedCheck.generatorStalledPercent();
    }

    public Double generatorLongestStallMs() {
        return speedCheck.generatorLongestStallMs();
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
