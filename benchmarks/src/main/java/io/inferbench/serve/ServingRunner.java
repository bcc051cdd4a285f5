package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.backend.Backends;
import io.inferbench.backend.Device;
import io.inferbench.backend.InferenceSession;
import io.inferbench.backend.SessionSpec;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.report.ServingTable;
import io.inferbench.results.CellResult;
import io.inferbench.results.LoadPointResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SlaBoundary;
import io.inferbench.sweep.SweepOptions;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Serves requests to every engine, device and model of a finished sweep, in the sweep's own JVM, one after the other:
 * closed loop at each concurrency, open loop at each rate, the dynamic batcher at each max wait and rate, then the SLA
 * search for each policy. Every point is simulated from the sweep's service times first and the prediction is kept
 * beside the measurement.
 *
 * <p>Before the first point of a model, a short unrecorded warm-up runs requests through the same path. Each point
 * draws its arrivals from a seed of its own (the run's seed and the point's parameters), so a rerun sends the same
 * schedule.
 */
public final class ServingRunner {
    static final double WARMUP_SECONDS = 1.0;

    private final SweepOptions sweep;
    private final ServeOptions options;
    private final PrintStream console;
    private final RequestInputs inputs;

    public ServingRunner(SweepOptions sweep, ServeOptions options, PrintStream console) {
        this(sweep, options, console, null);
    }

    /** @param inputs the workload requests are drawn from (one sample each, padded to its batch's bucket), or null */
    public ServingRunner(SweepOptions sweep, ServeOptions options, PrintStream console, RequestInputs inputs) {
        this.sweep = sweep;
        this.options = options;
        this.console = console;
        this.inputs = inputs;
    }

    private int rowsPerRequest() {
        return inputs == null ? options.samplesPerRequest() : 1;
    }

    public ServingResult run(RunResult run) throws InterruptedException {
        List<ServingResult.ServingConditions> conditions = new ArrayList<>();
        List<LoadPointResult> points = new ArrayList<>();
        List<SlaBoundary> boundaries = new ArrayList<>();
        for (String backend : sweep.backends()) {
            for (String device : sweep.devices()) {
                for (String model : sweep.models()) {
                    ModelSource source = ModelSource.parse(model);
                    if (!Backends.canLoad(backend, source)) {
                        continue;
                    }
                    serveOne(run, backend, device, model, source, conditions, points, boundaries);
                }
            }
        }
        return new ServingResult(conditions, points, boundaries);
    }

    private void serveOne(RunResult run, String backend, String device, String model, ModelSource source,
                          List<ServingResult.ServingConditions> conditions, List<LoadPointResult> points,
                          List<SlaBoundary> boundaries) throws InterruptedException {
        ServiceTimes serviceTimes = serviceTimes(run, backend, device, model, options.seqLen());
        Map<Integer, ServiceTimes> bySeq = new LinkedHashMap<>();
        if (inputs != null) {
            for (int bucket : inputs.buckets()) {
                ServiceTimes times = serviceTimes(run, backend, device, model, bucket);
                if (times != null) {
                    bySeq.put(bucket, times);
                }
            }
        }
        QueueSimulator simulator = serviceTimes == null ? null : new QueueSimulator(serviceTimes, bySeq, rowsPerRequest());
        String sha = run.config().models().stream().filter(m -> m.name().equals(model)).map(m -> m.sha256()).findFirst().orElse(null);
        try (InferenceSession session = Backends.create(backend, sweep.djlCacheDir()).open(new SessionSpec(source,
                new ModelResolver(sweep.cacheDir(), sweep.seed()).locate(source), sweep.seed(), Device.parse(device),
                sweep.intraOpThreads(), sweep.interOpThreads(), sweep.allowCpuFallback()))) {
            String target = backend + "/" + device + "/" + model;
            console.println();
            String shape = inputs == null ? "at seq " + options.seqLen() + ", " + options.samplesPerRequest() + " sample(s) per request"
                    : "with the workload's requests (" + inputs.workload().requests() + ", one each, padded to the batch's bucket of "
                    + inputs.buckets() + (inputs.workload().hasText() ? ", tokenized by the worker" : "") + ")";
            console.println(Text.f("[inferbench] serving %s %s, %s arrivals, %s s per point; %s", target, shape,
                    options.arrivals().label(), Text.plain(options.pointSeconds()), session.sharing()));
            conditions.add(new ServingResult.ServingConditions(backend, device, model, sha, options.seqLen(),
                    rowsPerRequest(), options.arrivals().label(), options.seed(), options.pointSeconds(),
                    session.intraOpThreads(), session.interOpThreads(), Runtime.getRuntime().availableProcessors(),
                    session.sharing(), "one generator thread, one thread per worker or client, and the engine's "
                    + session.intraOpThreads() + " intra-op thread(s) share " + Runtime.getRuntime().availableProcessors()
                    + " logical cores; " + (inputs == null ? "" : "requests " + shape + "; ")
                    + (serviceTimes == null ? "no prediction: the sweep measured no cell at seq "
                    + options.seqLen() : serviceTimes.note(rowsNeeded()))));
            int executorBatch = Math.max(options.maxBatch(), 1);
            BatchExecutor.Factory executors = () -> new SessionExecutor(session, options.seqLen(), rowsPerRequest(),
                    executorBatch, sweep.seed(), inputs);
            new ClosedLoopRun(1, executors).run(WARMUP_SECONDS);
            Context context = new Context(backend, device, model, executors, simulator);

            for (int clients : options.concurrencies()) {
                points.add(print(closedLoop(context, clients)));
            }
            for (double rate : options.ratesRps()) {
                points.add(print(openLoop(context, ServingPolicy.unbatched(1), rate, options.pointSeconds(), "point")));
            }
            for (double wait : options.maxWaitsMs()) {
                for (double rate : options.ratesRps()) {
                    points.add(print(openLoop(context, new ServingPolicy(1, options.maxBatch(), wait), rate,
                            options.pointSeconds(), "point")));
                }
            }
            if (options.slaP99Ms() != null) {
                for (ServingPolicy policy : options.policies()) {
                    boundaries.add(searchSla(context, policy, points));
                }
            }
        }
    }

    /** What one model's points need: where they run, and how to predict them. */
    private record Context(String backend, String device, String model, BatchExecutor.Factory executors,
                           QueueSimulator simulator) {
    }

    private List<Integer> rowsNeeded() {
        return IntStream.rangeClosed(1, Math.max(1, options.maxBatch())).map(k -> k * rowsPerRequest()).boxed().toList();
    }

    /** The sweep's cells of this engine, device and model at the serving sequence length, by batch size. */
    private ServiceTimes serviceTimes(RunResult run, String backend, String device, String model, int seq) {
        Map<Integer, Histogram> byRows = new LinkedHashMap<>();
        for (CellResult cell : run.cells()) {
            if (cell.measured() && cell.backend().equals(backend) && cell.device().equals(device) && cell.model().equals(model)
                    && cell.seqLen() == seq) {
                byRows.put(cell.batch(), HistogramCodec.decode(cell.histogramNs()));
            }
        }
        return byRows.isEmpty() ? null : new ServiceTimes(byRows);
    }

    private LoadPointResult closedLoop(Context c, int clients) throws InterruptedException {
        int[] mix = inputs == null ? null : inputs.mix(1 << 16, seed("closed-mix", clients, 0));
        List<Request> requests = new ClosedLoopRun(clients, c.executors()).run(options.pointSeconds(), mix);
        LoadPointResult.Prediction predicted = null;
        if (c.simulator() != null) {
            // Each client has its own executor, so nothing queues: the forecast is the sweep's batch-1 pass time, as if the
            // clients' passes did not slow each other. Where they share cores, the gap is that contention.
            long[] oneByOne = new long[Math.max(1000, requests.size())];
            QueueSimulator.Outcome outcome = c.simulator().simulate(spaced(oneByOne.length), ServingPolicy.unbatched(1),
                    seed("closed", clients, 0), requestSeq(mix, oneByOne.length));
            predicted = prediction(outcome, "no queue (each client has its own runner); the sweep's passes at "
                    + options.samplesPerRequest() + " row(s), measured one at a time, so contention between " + clients
                    + " concurrent passes is not in it");
        }
        return LoadPointSummary.summarize(new LoadPointSummary.Point(c.backend(), c.device(), c.model(), options.seqLen(),
                "closed-loop", ServingPolicy.unbatched(clients), clients, null, "point", options.pointSeconds()), requests, predicted);
    }

    /** Each request's bucket, for the simulator; null without a workload. */
    private int[] requestSeq(int[] mix, int count) {
        if (mix == null) {
            return null;
        }
        int[] seq = new int[count];
        for (int i = 0; i < count; i++) {
            seq[i] = inputs.bucketOf(mix[i % mix.length]);
        }
        return seq;
    }

    /** Arrivals far enough apart that none waits: for pass-time-only forecasts. */
    private static long[] spaced(int n) {
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            t[i] = i * 60_000_000_000L;
        }
        return t;
    }

    private LoadPointResult openLoop(Context c, ServingPolicy policy, double rate, double seconds, String purpose)
            throws InterruptedException {
        long seed = seed(policy.label(), (long) (rate * 1000), (long) (seconds * 1000));
        long[] schedule = options.arrivals().schedule(rate, seconds, seed);
        int[] mix = inputs == null ? null : inputs.mix(schedule.length, seed);
        LoadPointResult.Prediction predicted = null;
        if (c.simulator() != null) {
            predicted = prediction(c.simulator().simulate(schedule, policy, seed, requestSeq(mix, schedule.length)),
                    "simulated on the same arrivals" + (mix == null ? "" : " and requests") + " from the sweep's pass times");
        }
        long drainNs = (long) (Math.max(10, seconds) * 1e9);
        List<Request> requests = new OpenLoopRun(policy, c.executors()).run(schedule, mix, drainNs);
        return LoadPointSummary.summarize(new LoadPointSummary.Point(c.backend(), c.device(), c.model(), options.seqLen(),
                policy.batching() ? "batching" : "open-loop", policy, policy.workers(), rate, purpose, seconds), requests, predicted);
    }

    private SlaBoundary searchSla(Context c, ServingPolicy policy, List<LoadPointResult> points) throws InterruptedException {
        SlaSearch search = new SlaSearch(options.slaP99Ms(), options.pointSeconds());
        Double predicted = null;
        if (c.simulator() != null) {
            double capacity = policy.workers() * policy.maxBatch() * 1e9
                    / Math.max(1, c.simulator().serviceTimes().quantile(policy.maxBatch() * options.samplesPerRequest(), 0.5));
            predicted = search.predictBoundary(rate -> {
                double seconds = Math.max(options.pointSeconds(), 4000 / rate);
                long[] schedule = options.arrivals().schedule(rate, seconds, seed(policy.label(), (long) rate, 1));
                int[] mix = inputs == null ? null : inputs.mix(schedule.length, seed(policy.label(), (long) rate, 3));
                return c.simulator().simulate(schedule, policy, seed(policy.label(), (long) rate, 2),
                        requestSeq(mix, schedule.length)).percentileMs(99);
            }, Math.max(capacity / 200, ServeOptions.MIN_REQUESTS_PER_POINT / options.pointSeconds()),
                    Math.min(capacity * 1.5, ServeOptions.MAX_RATE_RPS));
        }
        double start = predicted != null ? predicted : ServeOptions.MIN_REQUESTS_PER_POINT / options.pointSeconds() * 4;
        console.println(Text.f("[inferbench] SLA search, %s, p99 <= %s ms: simulated boundary %s; measuring", policy.label(),
                Text.plain(options.slaP99Ms()), predicted == null ? "unknown" : Text.f("%.1f requests/s", predicted)));
        SlaSearch.Result result = search.search(start, c.simulator() != null && predicted == null,
                (rate, seconds) -> print(openLoop(c, policy, rate, seconds, "sla-step")), points);
        LoadPointResult best = result.best();
        return new SlaBoundary(c.backend(), c.device(), c.model(), policy.label(), policy.workers(),
                policy.batching() ? policy.maxWaitMs() : null, policy.maxBatch(), options.slaP99Ms(),
                best == null ? null : best.rateRps(), best == null ? null : best.latencyFromIntendedMs().p50Ms(),
                best == null ? null : best.latencyFromIntendedMs().p99Ms(), best == null ? null : best.meanBatchSize(),
                best == null ? null : best.sustained(), predicted, result.steps());
    }

    private static LoadPointResult.Prediction prediction(QueueSimulator.Outcome outcome, String note) {
        return new LoadPointResult.Prediction(outcome.percentileMs(50), outcome.percentileMs(99), outcome.meanBatchSize(),
                outcome.requests(), outcome.cpuMs(), note);
    }

    private long seed(String what, long a, long b) {
        return options.seed() * 1_000_003L ^ what.hashCode() * 31L ^ a * 7919L ^ b;
    }

    private LoadPointResult print(LoadPointResult p) {
        console.println(ServingTable.line(p));
        return p;
    }
}
