package io.inferbench.serve.generation;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;
import io.inferbench.engine.RowBatch;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.inputs.KvPair;
import io.inferbench.report.GenerationLoadTable;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.GenerationServing;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.SlaBoundary;
import io.inferbench.serve.PointSchedule;
import io.inferbench.serve.RateSearch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Generation requests under open-loop load, after the generation cells, in the run's own JVM: for each engine, device
 * and model, each batching policy at each rate, then the SLO search per policy. Each point's arrivals and requests come
 * from a seed of its own (the run's, the policy and the rate), so a rerun sends the same load, and each is first run
 * through the same scheduler with pass times from the cells' curves: the forecast beside the measurement.
 *
 * <p>Before the first point of a model, an unrecorded warm-up runs prefills and steps at every batch size the policies
 * form, with rows of different lengths joining and leaving, through the same path.
 */
public final class GenerationLoadRunner {
    /** The warm-up's length at least, and the passes of each of its shapes at least. */
    static final double WARMUP_SECONDS = 1.0;
    static final int WARMUP_ROUNDS = 3;

    private final SessionDefaults sessions;
    private final List<KvPair> kvPairs;
    private final GenerationLoadOptions options;
    private final int promptIdBound;
    private final PrintStream console;

    /** @param promptIdBound a prompt's ids are drawn from [0, this), as the generation cells draw theirs */
    public GenerationLoadRunner(SessionDefaults sessions, List<KvPair> kvPairs, GenerationLoadOptions options,
                                int promptIdBound, PrintStream console) {
        this.sessions = sessions;
        this.kvPairs = List.copyOf(kvPairs);
        this.options = options;
        this.promptIdBound = promptIdBound;
        this.console = console;
    }

    public GenerationServing run(RunResult run) throws InterruptedException {
        List<GenerationServing.Conditions> conditions = new ArrayList<>();
        List<GenerationServing.Point> points = new ArrayList<>();
        List<GenerationServing.Boundary> boundaries = new ArrayList<>();
        RunConfig.Plan plan = run.config().plan();
        for (Pairing pairing : Pairings.of(plan.backends(), plan.devices(), plan.models().stream()
                .map(RunConfig.ModelInfo::name).toList(), Pairings.Purpose.GENERATION)) {
            serve(run, pairing, conditions, points, boundaries);
        }
        return new GenerationServing(conditions, points, boundaries, GenerationLoadReading.answer(boundaries, options.slo()));
    }

    private void serve(RunResult run, Pairing pairing, List<GenerationServing.Conditions> conditions,
                       List<GenerationServing.Point> points, List<GenerationServing.Boundary> boundaries)
            throws InterruptedException {
        List<GenerationResult.Cell> cells = run.generation() == null ? List.of() : run.generation().cells().stream()
                .filter(c -> c.backend().equals(pairing.engine()) && c.device().equals(pairing.device())
                        && c.model().equals(pairing.model())).toList();
        double meanPrompt = options.shape().promptLengths().stream().mapToInt(Integer::intValue).average().orElse(1);
        PassCurves curves = PassCurves.of(cells, options.maxBatch(), meanPrompt);
        GenerationLoadReading reading = new GenerationLoadReading(curves, run.generation(), pairing);
        try (DecoderSession decoder = sessions.backend(pairing.engine()).openDecoder(
                sessions.spec(pairing.source(), pairing.device()), kvPairs);
             RowBatch rows = decoder.rows()) {
            if (rows == null) {
                throw new BenchmarkException("generation under load needs a batch whose rows join and leave: "
                        + decoder.rowsRefusal());
            }
            String scheduler = "one thread is the load's clock and the decoder's scheduler: requests arrive at their "
                    + "intended sends (" + options.arrivals().label() + ", seeded), wait in a queue, and are prefilled "
                    + "together when the policy admits them; each token is picked greedily; the caches "
                    + (rows.pads() ? "are left-padded along positions with the attention mask, position ids per row"
                    : "are never padded (the model has no attention mask: every prompt has one length)")
                    + "; " + decoder.provider() + ", " + sessions.intraOpThreads() + " intra-op thread(s)";
            console.println();
            console.println(Text.f("[inferbench] generation under load: %s/%s/%s, prompts %s, %s new tokens, batches of up "
                            + "to %d, %s s per point; %s", pairing.engine(), pairing.device(), Text.shortModelName(pairing.model()),
                    options.shape().promptLengths(), options.shape().newTokensLabel(), options.maxBatch(),
                    Text.plain(options.pointSeconds()), curves == null ? "no forecast (the cells measured one batch size)"
                            : "forecast from the cells' prefill and step curves (steps at prompt " + curves.stepSeq() + ")"));
            warmUp(rows);
            warmUpScheduler(rows);
            int longest = options.shape().promptLengths().stream().mapToInt(Integer::intValue).max().orElseThrow();
            IdlePenalty idle = IdlePenalty.measure(rows, LoadShape.promptIds(sessions.seed(), -200, longest, promptIdBound));
            console.println("[inferbench] idle penalty (in the forecast): " + idle.describe());
            conditions.add(new GenerationServing.Conditions(pairing.engine(), pairing.device(), pairing.model(),
                    options.shape().promptLengths(), options.shape().newTokensLabel(), options.maxBatch(),
                    options.maxWaitMs(), scheduler, idle.describe()));
            Target target = new Target(pairing, rows, curves, reading, idle);
            for (Batching policy : options.policies()) {
                for (double rate : options.ratesRps()) {
                    points.add(print(point(target, policy, rate, options.pointSeconds(), "point")));
                }
            }
            if (options.slo() != null) {
                for (Batching policy : options.policies()) {
                    boundaries.add(search(target, policy, points));
                }
            }
        }
    }

    /** What one model's points need. */
    private record Target(Pairing pairing, RowBatch rows, PassCurves curves, GenerationLoadReading reading,
                          IdlePenalty idle) {
    }

    /**
     * Prefills at every batch size up to the max, at the longest and the shortest prompt, each batch stepped a few times
     * with a row leaving and one of another length joining; at least {@value #WARMUP_SECONDS} s and
     * {@value #WARMUP_ROUNDS} rounds. Recorded nowhere.
     */
    private void warmUp(RowBatch rows) {
        List<Integer> lengths = options.shape().promptLengths();
        int longest = lengths.stream().mapToInt(Integer::intValue).max().orElseThrow();
        int shortest = lengths.stream().mapToInt(Integer::intValue).min().orElseThrow();
        long start = System.nanoTime();
        for (int round = 0; round < WARMUP_ROUNDS || System.nanoTime() - start < WARMUP_SECONDS * 1e9; round++) {
            for (int batch = 1; batch <= options.maxBatch(); batch++) {
                List<long[]> prompts = new ArrayList<>();
                for (int i = 0; i < batch; i++) {
                    prompts.add(LoadShape.promptIds(sessions.seed(), -1 - i, longest, promptIdBound));
                }
                rows.prefill(prompts);
                rows.join();
                long[] tokens = new long[batch];
                for (int s = 0; s < 3; s++) {
                    rows.step(tokens);
                }
                if (batch > 1 && rows.pads()) {
                    rows.leave(new int[] {0});
                    rows.prefill(List.of(LoadShape.promptIds(sessions.seed(), -100, shortest, promptIdBound)));
                    rows.join();
                    rows.step(new long[batch]);
                }
                rows.clear();
            }
        }
    }

    /**
     * Each policy's own loop for {@value #SCHEDULER_WARMUP_SECONDS} s at the lowest rate asked (or
     * {@value #SCHEDULER_WARMUP_RPS} requests/s), recorded nowhere: the scheduler's code and the summary's are compiled
     * before the first point, which would otherwise pay for it (on 2 cores the JIT's threads take a core from it).
     */
    private void warmUpScheduler(RowBatch rows) {
        double rate = options.ratesRps().stream().mapToDouble(Double::doubleValue).min().orElse(SCHEDULER_WARMUP_RPS);
        for (Batching policy : options.policies()) {
            long seed = seed("warm-up " + policy.label(), rate, SCHEDULER_WARMUP_SECONDS);
            Scheduler.Trace trace = new Scheduler(new EnginePasses(rows, System.nanoTime()), policy, options.maxBatch(),
                    (long) (options.maxWaitMs() * 1e6)).run(requests(options.arrivals().schedule(rate,
                    SCHEDULER_WARMUP_SECONDS, seed), seed), (long) (SCHEDULER_WARMUP_SECONDS * 1e9));
            new PointSummary(trace, SCHEDULER_WARMUP_SECONDS, options.slo());
        }
    }

    static final double SCHEDULER_WARMUP_SECONDS = 1.0;
    static final double SCHEDULER_WARMUP_RPS = 20;

    /** One point: the forecast on the point's arrivals, then the measurement. */
    private GenerationServing.Point point(Target t, Batching policy, double rate, double seconds, String purpose) {
        long seed = seed(policy.label(), rate, seconds);
        long[] schedule = options.arrivals().schedule(rate, seconds, seed);
        long maxWaitNs = (long) (options.maxWaitMs() * 1e6);
        GenerationServing.Forecast forecast = null;
        if (t.curves() != null) {
            Scheduler.Trace predicted = new Scheduler(new ForecastPasses(t.curves(), t.idle()), policy, options.maxBatch(), maxWaitNs)
                    .run(requests(schedule, seed), options.drainNs());
            PointSummary p = new PointSummary(predicted, seconds, null);
            forecast = new GenerationServing.Forecast(p.latency.ttftMs() == null ? null : p.latency.ttftMs().p50Ms(),
                    p.latency.ttftMs() == null ? null : p.latency.ttftMs().p99Ms(),
                    p.latency.tpotMs() == null ? null : p.latency.tpotMs().p99Ms(), p.formed.meanStepRows(),
                    "the same arrivals and requests through the same scheduler, each pass priced from the cells' p50s "
                            + "times the idle penalty before it; without the cache copies of joins and leaves, the steps' growth with the context, and "
                            + "anything else on the machine");
        }
        Scheduler.Trace trace = new Scheduler(new EnginePasses(t.rows(), System.nanoTime()), policy, options.maxBatch(),
                maxWaitNs).run(requests(schedule, seed), options.drainNs());
        PointSummary measured = new PointSummary(trace, seconds, options.slo());
        Pairing p = t.pairing();
        return new GenerationServing.Point(new GenerationServing.Served(p.engine(), p.device(), p.model(), policy.label()),
                new GenerationServing.Load(rate, purpose, seconds, measured.offeredRps), measured.requests, measured.latency,
                measured.formed, measured.slo, forecast, t.reading().verdict(policy, measured.formed));
    }

    /** The point's requests: each one's prompt length, new tokens and ids from the point's seed and its index. */
    private List<LoadRequest> requests(long[] schedule, long seed) {
        List<LoadRequest> requests = new ArrayList<>(schedule.length);
        for (int i = 0; i < schedule.length; i++) {
            int[] drawn = options.shape().draw(seed, i);
            requests.add(new LoadRequest(i, schedule[i], LoadShape.promptIds(seed, i, drawn[0], promptIdBound), drawn[1]));
        }
        return requests;
    }

    /**
     * The highest rate the policy holds the SLO at, with the rate search the serving SLA uses ({@link RateSearch}),
     * starting from the forecast's boundary: the simulated scheduler's pre-scan.
     */
    private GenerationServing.Boundary search(Target t, Batching policy, List<GenerationServing.Point> points)
            throws InterruptedException {
        GenerationLoadOptions.Slo slo = options.slo();
        RateSearch<GenerationServing.Point> search = new RateSearch<>(new RateSearch.Judge<>() {
            @Override
            public boolean passes(GenerationServing.Point point) {
                return point.slo().met();
            }

            @Override
            public SlaBoundary.Step step(GenerationServing.Point point, double rateRps, double seconds, boolean passes) {
                return new SlaBoundary.Step(rateRps, seconds, point.requests().sent(),
                        point.latency().ttftMs() == null ? null : point.latency().ttftMs().p99Ms(),
                        !point.requests().overloaded(), point.requests().overloaded(), passes);
            }
        }, options.pointSeconds());
        Double forecast = null;
        if (t.curves() != null) {
            double capacity = options.maxBatch() * 1e9 / Math.max(1, t.curves().stepNs(options.maxBatch())
                    * (options.shape().maxNewTokens()) + t.curves().prefillNs(options.maxBatch(),
                    options.shape().promptLengths().stream().mapToInt(Integer::intValue).max().orElse(1)));
            forecast = search.predictBoundary(rate -> forecastMeets(t, policy, rate), RateSearch.floorRps(),
                    Math.max(2 * RateSearch.floorRps(), capacity * 2));
        }
        double start = forecast != null ? forecast : RateSearch.floorRps() * 4;
        console.println(Text.f("[inferbench] SLO search, %s batching, %s: forecast boundary %s; measuring", policy.label(),
                slo.describe(), forecast == null ? t.curves() == null ? "unknown" : Text.f("none down to %.2f requests/s",
                        RateSearch.floorRps()) : Text.f("%.1f requests/s", forecast)));
        RateSearch.Result<GenerationServing.Point> result = search.search(start, t.curves() != null && forecast == null,
                (rate, seconds) -> print(point(t, policy, rate, seconds, "slo-step")), points);
        GenerationServing.Point best = result.best();
        Pairing p = t.pairing();
        GenerationServing.Boundary boundary = new GenerationServing.Boundary(new GenerationServing.Served(p.engine(),
                p.device(), p.model(), policy.label()), result.boundary(), result.bestRps(), forecast,
                best == null ? null : best.slo().goodputRps(), best == null ? null : best.verdict(), result.steps());
        console.println(GenerationLoadTable.boundaryLine(boundary));
        return boundary;
    }

    /** Whether the forecast of {@code rate} meets the SLO: the simulated scheduler on its own seeded arrivals. */
    private boolean forecastMeets(Target t, Batching policy, double rate) {
        double seconds = Math.max(options.pointSeconds(), 400 / rate);
        long seed = seed(policy.label() + " forecast", rate, seconds);
        Scheduler.Trace trace = new Scheduler(new ForecastPasses(t.curves(), t.idle()), policy, options.maxBatch(),
                (long) (options.maxWaitMs() * 1e6)).run(requests(options.arrivals().schedule(rate, seconds, seed), seed),
                options.drainNs());
        PointSummary p = new PointSummary(trace, seconds, options.slo());
        return p.slo.met();
    }

    private long seed(String what, double rate, double seconds) {
        return PointSchedule.seed(options.seed(), what, (long) (rate * 1000), (long) (seconds * 1000));
    }

    private GenerationServing.Point print(GenerationServing.Point p) {
        console.println(GenerationLoadTable.line(p));
        return p;
    }
}
