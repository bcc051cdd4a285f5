package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.engine.Device;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.model.ModelSource;
import io.inferbench.probe.GpuSampler;
import io.inferbench.report.ServingTable;
import io.inferbench.results.AblationResult;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SlaBoundary;
import io.inferbench.results.SoakResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Serves requests to every engine, device and model of a finished sweep, one after the other, in the JVM that runs it
 * (the sweep's for an engine's model, one of its own for a target: {@code ServingFork}):
 * closed loop at each concurrency, open loop at each rate, the dynamic batcher at each max wait and rate, then the SLA
 * search for each policy. Every point is simulated from the sweep's service times first and the prediction is kept
 * beside the measurement.
 *
 * <p>Before the first point of a model, an unrecorded warm-up runs every batch size the batcher can form, at every
 * bucket the workload reaches, through the same path ({@link ServingWarmup}). Each point
 * draws its arrivals from a seed of its own (the run's seed and the point's parameters), so a rerun sends the same
 * schedule.
 *
 * <p>Each point's cost besides time ({@link PointMeter}: CPU, RAPL energy, and on CUDA an nvidia-smi sampler running for
 * the model's points) is read before and after it, and kept with it; the SLA boundary carries it at its rate.
 */
public final class ServingRunner {
    /** The serving warm-up's length, shared among its shapes (each runs at least {@value ServingWarmup#PASSES_PER_SHAPE} passes). */
    static final double WARMUP_SECONDS = 2.0;

    private final SessionDefaults sessions;
    private final String nvidiaSmi;
    private final ServeOptions options;
    private final PrintStream console;
    private final RequestShape inputs;
    /** Each measured open-loop point's served-over-forecast pass ratios, for the boundary's re-simulation. */
    private final Map<LoadPointResult, double[]> servedRatios = new IdentityHashMap<>();
    private final List<SoakResult> soaks = new ArrayList<>();
    private final List<AblationResult> ablations = new ArrayList<>();
    private final List<ServingResult.ServingConditions> conditions = new ArrayList<>();
    private final List<LoadPointResult> points = new ArrayList<>();
    private final List<SlaBoundary> boundaries = new ArrayList<>();
    private java.util.function.Consumer<ServingResult> soFar = served -> { };

    /**
     * @param sessions  how the run's cells opened their sessions: the served sessions are opened the same way
     * @param nvidiaSmi the binary that samples the GPU on CUDA
     * @param inputs    what each request carries: a fixed shape, or the workload's requests (one sample each, padded to
     *                  its batch's bucket)
     */
    public ServingRunner(SessionDefaults sessions, String nvidiaSmi, ServeOptions options, PrintStream console,
                         RequestShape inputs) {
        this.sessions = sessions;
        this.nvidiaSmi = nvidiaSmi;
        this.options = options;
        this.console = console;
        this.inputs = inputs;
    }

    /**
     * Hands {@code soFar} what has been served after each point, soak and ablation, between them: the serving JVM keeps
     * it on disk, so that a call that never returns loses only the point it was in.
     */
    public ServingRunner eachServed(java.util.function.Consumer<ServingResult> soFar) {
        this.soFar = soFar;
        return this;
    }

    private ServingResult served(List<ServingResult.ConcurrencyKnee> knees) {
        return new ServingResult(List.copyOf(conditions), List.copyOf(points), List.copyOf(boundaries),
                options.slaMaxErrorRate(), knees, options.soak() ? List.copyOf(soaks) : null,
                options.ablation() ? List.copyOf(ablations) : null);
    }

    private int rowsPerRequest() {
        return inputs.rowsPerRequest();
    }

    public ServingResult run(RunResult run) throws InterruptedException {
        RunConfig.Plan plan = run.config().plan();
        for (Pairing pairing : Pairings.of(plan.backends(), plan.devices(), plan.models().stream().map(RunConfig.ModelInfo::name)
                .toList(), Pairings.Purpose.FORWARD)) {
            serveOne(run, pairing.engine(), pairing.device(), pairing.model(), pairing.source());
        }
        List<ServingResult.ConcurrencyKnee> knees = ConcurrencyKnees.of(points);
        knees.forEach(k -> console.println("[inferbench] closed-loop knee, " + k.backend() + " " + k.device() + " "
                + io.inferbench.Text.shortModelName(k.model()) + ": " + k.reason()));
        return served(knees);
    }

    private void serveOne(RunResult run, String backend, String device, String model, ModelSource source)
            throws InterruptedException {
        String sha = run.config().plan().models().stream().filter(m -> m.name().equals(model)).map(m -> m.sha256()).findFirst().orElse(null);
        Device used = Device.parse(device);
        InferenceSession session = watched("open", () -> sessions.backend(backend).open(sessions.spec(source, device)));
        try (GpuSampler gpu = used.isCuda() ? GpuSampler.start(nvidiaSmi, used.index()) : null) {
            String target = backend + "/" + device + "/" + model;
            console.println();
            String shape = !(inputs instanceof RequestInputs w) ? (options.seqLen() == 0 ? "batch only" : "at seq " + options.seqLen()) + ", "
                    + options.samplesPerRequest() + " sample(s) per request"
                    : "with the workload's requests (" + w.workload().requests() + ", one each, padded to the batch's bucket of "
                    + w.buckets() + (!w.workload().hasText() ? "" : session.takesText() ? ", each text given to the session, "
                    + "which tokenizes it in its own call" : ", tokenized by the worker") + ")";
            console.println(Text.f("[inferbench] serving %s %s, %s arrivals, %s s per point; %s", target, shape,
                    options.arrivals().label(), Text.plain(options.pointSeconds()), session.sharing()));
            int executorBatch = Math.max(options.maxBatch(), 1);
            BatchExecutor.Factory executors = () -> new SessionExecutor(session, options.seqLen(), rowsPerRequest(),
                    executorBatch, sessions.seed(), inputs);
            ServingWarmup.Result warmup = ServingWarmup.run(executors, ServingWarmup.shapes(largestBatch(), inputs),
                    WARMUP_SECONDS);
            if (!warmup.failures().isEmpty()) {
                console.println("[inferbench] serving warm-up: " + warmup.failures().size() + " shape(s) failed, first "
                        + warmup.failures().get(0) + "; their points will record the failure");
            }
            // The threads in effect, as the session reports them (its version is not needed here).
            io.inferbench.engine.SessionFacts threads = session.facts("");
            ServingForecast.Forecast forecast = new ServingForecast(options, inputs, rowsPerRequest(), largestBatch())
                    .forecast(run, backend, device, model, warmup, Device.parse(device).isCuda() ? 0
                            : Runtime.getRuntime().availableProcessors(), threads.intraOpThreads());
            QueueSimulator simulator = forecast.simulator();
            conditions.add(new ServingResult.ServingConditions(backend, device, model, sha, options.seqLen(),
                    rowsPerRequest(), options.arrivals().label(), options.seed(), options.pointSeconds(),
                    threads.intraOpThreads(), threads.interOpThreads(), Runtime.getRuntime().availableProcessors(),
                    session.sharing(), "one generator thread, one thread per worker or client, and the engine's "
                    + threads.intraOpThreads() + " intra-op thread(s) share " + Runtime.getRuntime().availableProcessors()
                    + " logical cores; " + (inputs instanceof RequestInputs ? "requests " + shape + "; " : "") + forecast.note()));
            PointMeter meter = new PointMeter(io.inferbench.probe.Probe.all(), gpu, Runtime.getRuntime().availableProcessors());
            ServedModel context = new ServedModel(backend, device, model, executors, simulator, rowsPerRequest(), meter);

            for (int clients : options.concurrencies()) {
                points.add(print(closedLoop(context, clients)));
            }
            for (double rate : options.ratesRps()) {
                points.add(print(openLoop(context, ServingPolicy.unbatched(1), rate, options.pointSeconds(), "point", null)));
            }
            for (double wait : options.maxWaitsMs()) {
                for (double rate : options.ratesRps()) {
                    points.add(print(openLoop(context, new ServingPolicy(1, options.maxBatch(), wait), rate,
                            options.pointSeconds(), "point", null)));
                }
            }
            List<SlaBoundary> found = new ArrayList<>();
            if (options.slaP99Ms() != null) {
                SlaSearchRun search = new SlaSearchRun(options, inputs, console, (c, policy, rate, seconds, purpose, stepForecast)
                        -> print(openLoop(c, policy, rate, seconds, purpose, stepForecast)), servedRatios);
                for (ServingPolicy policy : options.policies()) {
                    found.add(search.search(context, policy, points));
                }
            }
            boundaries.addAll(found);
            if (options.ablation() || options.soak()) {
                SustainedLoad load = SustainedLoad.choose(options.ratesRps(), found);
                SoakRun.Target served = new SoakRun.Target(backend, device, model);
                SustainedRuns sustained = new SustainedRuns(options, console, inputs, rowsPerRequest(), sessions.seed());
                // The soak first, straight after the points, so that nothing else has run in this JVM since they did.
                if (options.soak()) {
                    soaks.add(sustained.soak(executors, gpu, served, load));
                    soFar.accept(served(List.of()));
                }
                if (options.ablation()) {
                    ablations.add(sustained.ablate(session, served, load));
                    soFar.accept(served(List.of()));
                }
            }
        } finally {
            watched("close", () -> {
                session.close();
                return null;
            });
        }
    }

    /** A served session's open or close, under the serving JVM's watch where there is one ({@link ServedCallWatch}). */
    private static <T> T watched(String what, java.util.concurrent.Callable<T> call) {
        try {
            return ServedCallWatch.watched(what, call);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(what + " of the served session failed: " + e, e);
        }
    }

    /** The largest batch, in requests, any policy of this run forms: the batcher's max batch where there is a batcher. */
    private int largestBatch() {
        return options.maxWaitsMs().isEmpty() ? 1 : Math.max(1, options.maxBatch());
    }

    private LoadPointResult closedLoop(ServedModel c, int clients) throws InterruptedException {
        int[] mix = inputs instanceof RequestInputs w ? w.mix(1 << 16, seed("closed-mix", clients, 0)) : null;
        PointMeter.Start start = c.meter().start();
        List<Request> requests = new ClosedLoopRun(clients, c.executors()).run(options.pointSeconds(), mix);
        var resources = c.meter().end(start, completed(requests), c.rowsPerRequest());
        LoadPointResult.Prediction predicted = null;
        if (c.simulatorFor(ServingPolicy.unbatched(1)) != null) {
            // Each client has its own executor, so nothing queues: the forecast is the sweep's batch-1 pass time, as if the
            // clients' passes did not slow each other. Where they share cores, the gap is that contention.
            long[] oneByOne = new long[Math.max(1000, requests.size())];
            QueueSimulator.Outcome outcome = c.simulator().simulate(spaced(oneByOne.length), ServingPolicy.unbatched(1),
                    seed("closed", clients, 0), PointSchedule.requestSeq(inputs, mix, oneByOne.length));
            predicted = prediction(outcome, "no queue (each client has its own runner); the sweep's passes at "
                    + options.samplesPerRequest() + " row(s), measured one at a time, so contention between " + clients
                    + " concurrent passes is not in it");
        }
        if (predicted != null) {
            double[] ratios = ServedPasses.ratios(requests, c.simulator(), PointSchedule.bucketOf(inputs));
            predicted = predicted.withServedPasses(ServedPasses.median(ratios), ServedPasses.p99(ratios), null, null);
        }
        return LoadPointSummary.summarize(new LoadPointSummary.Point(c.backend(), c.device(), c.model(), options.seqLen(),
                "closed-loop", ServingPolicy.unbatched(clients), clients, null, "point", options.pointSeconds()), requests, predicted)
                .withResources(resources);
    }

    private static long completed(List<Request> requests) {
        return requests.stream().filter(Request::completed).count();
    }

    /** Arrivals far enough apart that none waits: for pass-time-only forecasts. */
    private static long[] spaced(int n) {
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = i * 60_000_000_000L;
        }
        return t;
    }

    /**
     * @param searchForecast the SLA search's forecast, brought to the machine of the moment by its speed checks; null:
     *                       the sweep's passes as they are
     */
    private LoadPointResult openLoop(ServedModel c, ServingPolicy policy, double rate, double seconds, String purpose,
                                     QueueSimulator searchForecast) throws InterruptedException {
        PointSchedule load = PointSchedule.of(options, inputs, rate, seconds,
                seed(policy.label(), (long) (rate * 1000), (long) (seconds * 1000)));
        long seed = load.seed();
        long[] schedule = load.arrivalsNs();
        int[] mix = load.mix();
        LoadPointResult.Prediction predicted = null;
        if (c.simulatorFor(policy) != null) {
            QueueSimulator forecast = searchForecast == null ? c.simulator() : searchForecast;
            predicted = prediction(forecast.simulate(schedule, policy, seed, PointSchedule.requestSeq(inputs, mix, schedule.length)),
                    "simulated on the same arrivals" + (mix == null ? "" : " and requests") + " from the sweep's pass times"
                            + (searchForecast == null ? "" : ", brought to the machine of the moment by the speed checks "
                            + "before the SLA search" + (searchForecast.stalls() == null ? ""
                            : ", with the load generator's stalls that the loaded check saw replayed")));
        }
        long drainNs = (long) (Math.max(10, seconds) * 1e9);
        PointMeter.Start start = c.meter().start();
        List<Request> requests = new OpenLoopRun(policy, c.executors()).run(schedule, mix, drainNs);
        var resources = c.meter().end(start, completed(requests), c.rowsPerRequest());
        double[] ratios = null;
        if (predicted != null) {
            ratios = ServedPasses.ratios(requests, c.simulator(), PointSchedule.bucketOf(inputs));
            int[] seqs = PointSchedule.requestSeq(inputs, mix, requests.size());
            Double replayed = ratios.length == 0 ? null : ServedPasses.replayedP99Ms(requests, c.simulator().servedAs(ratios),
                    policy, seed, seqs);
            Double inTime = ratios.length == 0 ? null : ServedPasses.replayedInTimeP99Ms(requests, c.simulator(),
                    PointSchedule.bucketOf(inputs),
                    policy, seed, seqs);
            predicted = predicted.withServedPasses(ServedPasses.median(ratios), ServedPasses.p99(ratios), replayed, inTime);
        }
        LoadPointResult point = LoadPointSummary.summarize(new LoadPointSummary.Point(c.backend(), c.device(), c.model(),
                options.seqLen(), policy.batching() ? "batching" : "open-loop", policy, policy.workers(), rate, purpose, seconds),
                requests, predicted).withResources(resources);
        if (ratios != null && ratios.length > 0) {
            servedRatios.put(point, ratios);
        }
        return point;
    }

    private static LoadPointResult.Prediction prediction(QueueSimulator.Outcome outcome, String note) {
        return new LoadPointResult.Prediction(outcome.percentileMs(50), outcome.percentileMs(99), outcome.meanBatchSize(),
                outcome.requests(), outcome.cpuMs(), note);
    }

    private long seed(String what, long a, long b) {
        return PointSchedule.seed(options.seed(), what, a, b);
    }


    /** Says a point, and hands what has been served, this point with it, to {@link #eachServed}'s listener. */
    private LoadPointResult print(LoadPointResult p) {
        console.println(ServingTable.line(p));
        ServingResult served = served(List.of());
        List<LoadPointResult> with = new ArrayList<>(served.points());
        with.add(p);
        soFar.accept(new ServingResult(served.conditions(), with, served.slaBoundary(), served.slaMaxErrorRate(),
                served.closedLoopKnee(), served.soak(), served.ablation()));
        return p;
    }
}
