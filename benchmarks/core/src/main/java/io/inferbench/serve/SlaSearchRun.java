package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.report.ServingTable;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.PointResources;
import io.inferbench.results.SlaBoundary;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * The SLA search of one policy on one model: the sweep's passes re-timed now (alone, then under load, with the load
 * generator's stalls), the simulated boundary from them, then the live search ({@link SlaSearch}) from there, and the
 * boundary with its re-simulation from the passes as its point served them.
 */
final class SlaSearchRun {
    /** Measures one open-loop point of the search, printed as it finishes. */
    @FunctionalInterface
    interface OpenLoop {
        LoadPointResult run(ServedModel c, ServingPolicy policy, double rate, double seconds, String purpose,
                            QueueSimulator searchForecast) throws InterruptedException;
    }

    private final ServeOptions options;
    private final RequestShape inputs;
    private final PrintStream console;
    private final OpenLoop openLoop;
    /** Each measured open-loop point's served-over-forecast pass ratios, for the boundary's re-simulation. */
    private final Map<LoadPointResult, double[]> servedRatios;

    SlaSearchRun(ServeOptions options, RequestShape inputs, PrintStream console, OpenLoop openLoop,
                 Map<LoadPointResult, double[]> servedRatios) {
        this.options = options;
        this.inputs = inputs;
        this.console = console;
        this.openLoop = openLoop;
        this.servedRatios = servedRatios;
    }

    /** The SLA search for {@code policy}, its steps added to {@code points}. */
    SlaBoundary search(ServedModel c, ServingPolicy policy, List<LoadPointResult> points) throws InterruptedException {
        SlaSearch search = new SlaSearch(options.slaP99Ms(), options.pointSeconds(), options.slaMaxErrorRate());
        Double predicted = null;
        Double alone = null;
        Double loaded = null;
        double loadedRps = 0;
        GeneratorStalls stalls = null;
        // The forecast before the loaded check: where the search starts when the stalls that check saw leave no rate.
        Double beforeStalls = null;
        // The search's forecast: the sweep's passes, brought to the machine of the moment by the checks below.
        QueueSimulator searchForecast = c.simulator();
        boolean predictable = c.simulatorFor(policy) != null;
        if (predictable) {
            // The machine's speed now against the sweep's, through the worker's path, unrecorded in any point.
            alone = SpeedCheck.ratio(ServingWarmup.run(c.executors(), ServingWarmup.shapes(policy.maxBatch(), inputs),
                    SpeedCheck.SECONDS), c.simulator());
            if (alone != null) {
                searchForecast = c.simulator().scaled(alone);
            }
            predicted = simulatedBoundary(search, searchForecast, policy, c.rowsPerRequest());
            beforeStalls = predicted;
            if (predicted != null) {
                // Then under load: the same loop at the rate the search starts from, unrecorded, its passes as served.
                loadedRps = SlaSearch.FIRST_STEP * predicted;
                List<Request> checked = loadedCheck(c, policy, loadedRps);
                loaded = ServedPasses.median(ServedPasses.ratios(checked, c.simulator(), PointSchedule.bucketOf(inputs)));
                if (loaded != null) {
                    // Scaled by the median, not drawn from the check's ratios: a check's batches give a noisy tail, and
                    // their contention between workers is what the simulator's sharing of cores already models (drawn,
                    // it was counted twice: a 1.43x forecast for two workers in one run against 1.01x scaled; with the
                    // stalls, drawn read 0.41x for no batching where scaled read 0.74x). The generator's stalls are
                    // replayed as the check saw them: they are in every measured point's latency and in no pass.
                    stalls = GeneratorStalls.of(checked);
                    searchForecast = c.simulator().scaled(loaded).withStalls(stalls);
                    predicted = simulatedBoundary(search, searchForecast, policy, c.rowsPerRequest());
                }
            }
        }
        QueueSimulator stepForecast = searchForecast;
        // No forecast: start where a point of the asked length holds 400 requests. Forecast none: start at the floor,
        // unless only the replayed stalls left none (a check that caught one long stall): then where the forecast
        // before the check put the boundary, the loaded check having run at 0.7x that, so that the live search, not
        // one check's stalls, says whether any rate meets the SLA.
        boolean startBeforeStalls = predicted == null && beforeStalls != null;
        double start = predicted != null ? predicted : startBeforeStalls ? beforeStalls : predictable ? SlaSearch.floorRps()
                : ServeOptions.MIN_REQUESTS_PER_POINT / options.pointSeconds() * 4;
        console.println(Text.f("[inferbench] SLA search, %s, p99 <= %s ms: simulated boundary %s%s; measuring", policy.label(),
                Text.plain(options.slaP99Ms()), predicted == null ? !predictable ? "unknown"
                        : Text.f("none down to %.2f requests/s", SlaSearch.floorRps()) : Text.f("%.1f requests/s", predicted),
                alone == null ? "" : Text.f(" (passes re-timed now: x%.2f the sweep's alone%s)", alone, loaded == null ? ""
                        : Text.f(", x%.2f served at %.1f requests/s%s", loaded, loadedRps, stalls == null ? ""
                        : Text.f("; generator stalled %.1f%% of that check, %d stall(s), longest %.1f ms, replayed",
                        stalls.stalledPercent(), stalls.count(), stalls.longestMs())))
                + (startBeforeStalls ? Text.f("; the search starts from the forecast before that check, %.1f requests/s",
                beforeStalls) : "")));
        SlaSearch.Result result = search.search(start, predictable && predicted == null && !startBeforeStalls,
                (rate, seconds) -> openLoop.run(c, policy, rate, seconds, "sla-step", stepForecast), points);
        LoadPointResult best = result.best();
        SlaBoundary.Found found = new SlaBoundary.Found(best == null ? null : best.rateRps(),
                best == null ? null : best.latencyFromIntendedMs().p50Ms(),
                best == null ? null : best.latencyFromIntendedMs().p99Ms(), best == null ? null : best.meanBatchSize(),
                best == null ? null : best.sustained(), result.boundary(), best == null ? null : best.generatorLimited(),
                result.floorRps());
        PointResources spent = best == null ? null : best.resources();
        SlaBoundary boundary = new SlaBoundary(new SlaBoundary.Searched(c.backend(), c.device(), c.model(), policy.label(),
                policy.workers(), policy.batching() ? policy.maxWaitMs() : null, policy.maxBatch(), options.slaP99Ms()),
                found, new SlaBoundary.Forecast(predicted, predicted == null || best == null ? null : predicted / best.rateRps()),
                result.steps(), spent == null ? null : new SlaBoundary.Cost(spent.cpuJoulesPerRequest(),
                spent.gpuJoulesPerRequest(), spent.cpu() == null ? null : spent.cpu().utilisationPercent()), null, null);
        double[] served = best == null ? null : servedRatios.get(best);
        if (predicted != null && served != null) {
            // The diagnostic re-simulation: the same pre-scan on the same arrivals, passes as the boundary's point served them.
            boundary = boundary.withResimulation(ServedPasses.median(served), ServedPasses.p99(served),
                    simulatedBoundary(search, c.simulator().servedAs(served), policy, c.rowsPerRequest()));
        }
        boundary = boundary.withSpeedCheck(alone, loaded, loaded == null ? null : loadedRps,
                stalls == null ? null : stalls.stalledPercent(), stalls == null ? null : stalls.longestMs());
        console.println(ServingTable.boundaryLine(boundary));
        return boundary;
    }

    /**
     * The policy's own loop for {@value SpeedCheck#LOADED_SECONDS} s at {@code rate}, recorded in no point: its requests,
     * for each batch's service over the sweep's median pass at its size ({@link ServedPasses}) and the generator's stalls
     * ({@link GeneratorStalls}). What a check of the passes alone cannot see: the generator's sends, the hand-offs and the
     * JVM beside the passes.
     */
    private List<Request> loadedCheck(ServedModel c, ServingPolicy policy, double rate) throws InterruptedException {
        PointSchedule load = PointSchedule.of(options, inputs, rate, SpeedCheck.LOADED_SECONDS,
                seed("speed-check " + policy.label(), (long) rate, 0));
        return new OpenLoopRun(policy, c.executors()).run(load.arrivalsNs(), load.mix(),
                (long) (SpeedCheck.LOADED_DRAIN_SECONDS * 1e9));
    }

    /**
     * The simulated pre-scan's boundary for {@code policy} with {@code simulator}'s service times: each rate simulated on
     * its own seeded arrivals (at least 4,000 requests), up to 1.5x the capacity its p50 pass at the largest batch
     * gives; null when none down to the floor meets the SLA.
     */
    private Double simulatedBoundary(SlaSearch search, QueueSimulator simulator, ServingPolicy policy, int rowsPerRequest) {
        double capacity = policy.workers() * policy.maxBatch() * 1e9
                / Math.max(1, simulator.serviceTimes().quantile(policy.maxBatch() * rowsPerRequest, 0.5));
        return search.predictBoundary(rate -> {
            double seconds = Math.max(options.pointSeconds(), 4000 / rate);
            PointSchedule load = PointSchedule.of(options, inputs, rate, seconds, seed(policy.label(), (long) rate, 1),
                    seed(policy.label(), (long) rate, 3));
            return simulator.simulate(load.arrivalsNs(), policy, seed(policy.label(), (long) rate, 2),
                    PointSchedule.requestSeq(inputs, load.mix(), load.arrivalsNs().length)).percentileMs(99);
        }, SlaSearch.floorRps(), scanTop(capacity));
    }

    /**
     * The top of the simulated pre-scan: 1.5x the policy's capacity from its p50 pass time, at most
     * {@link ServeOptions#MAX_RATE_RPS}, and never below twice the floor, so a model slower than the floor still gets a
     * range that runs upwards.
     */
    static double scanTop(double capacityRps) {
        return Math.max(2 * SlaSearch.floorRps(), Math.min(capacityRps * 1.5, ServeOptions.MAX_RATE_RPS));
    }

    private long seed(String what, long a, long b) {
        return PointSchedule.seed(options.seed(), what, a, b);
    }
}
