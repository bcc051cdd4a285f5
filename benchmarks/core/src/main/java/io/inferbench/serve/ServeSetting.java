package io.inferbench.serve;

import io.inferbench.BenchmarkException;
import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;

import java.util.List;
import java.util.Properties;

/**
 * Serving's settings: the load points after the sweep (closed loop, open loop, the batcher), their SLA searches, generation
 * under load, soak and ablation. Owned here, beside what reads them ({@link #read}); docs/options.md lists them after the
 * run's own ({@link io.inferbench.option.Option}).
 */
public enum ServeSetting implements Option.Defined {
    CONCURRENCY("bench.concurrency", "", "serving, after the sweep: closed-loop clients, e.g. `1,2,4,8`; each is also a "
            + "policy of that many workers for the SLA search"),
    RATE("bench.rate", "", "serving: open-loop arrival rates in requests/s, e.g. `50,100,200`, each run without a batcher and "
            + "under every `bench.maxWaitMs`"),
    ARRIVALS("bench.arrivals", "poisson", "serving: `poisson` or `uniform` arrivals, seeded with `bench.seed`"),
    MAX_WAIT_MS("bench.maxWaitMs", "", "serving: the dynamic batcher's max waits in ms, e.g. `0,5,10,20`; each is a policy"),
    MAX_BATCH("bench.maxBatch", "8", "serving: the largest batch the dynamic batcher forms, in requests"),
    SLA_P99_MS("bench.sla.p99Ms", "", "serving: a p99 target in ms; for each policy, the largest rate that meets it is "
            + "searched by bisection"),
    SLA_MAX_ERROR_RATE("bench.sla.maxErrorRate", "0", "serving: the largest share of failed requests (errors, and requests "
            + "unfinished at the drain limit) at which a point still meets the SLA; every point records its `errorRate`"),
    BATCHING("bench.batching", "", "generation under load: `static`, `continuous` or both; each runs at every "
            + "`bench.rate` with batches of up to `bench.batch`'s largest, and is searched against the SLO "
            + "(docs/generation.md); `static,continuous` when `bench.rate` is given alone"),
    SLA_TTFT_MS("bench.sla.ttftMs", "", "generation under load: the SLO's bound on p99 time to first token, in ms; "
            + "goodput counts requests within every bound, and each policy's highest rate within them is searched"),
    SLA_TPOT_MS("bench.sla.tpotMs", "", "generation under load: the SLO's bound on p99 time per output token (each "
            + "request's mean gap after its first token), in ms"),
    SERVE_SECONDS("bench.serveSeconds", "5", "serving: how long each load point sends requests"),
    SERVE_SEQ("bench.serveSeq", "", "serving: the sequence length of every request; empty means the sweep's smallest"),
    SOAK_SECONDS("bench.soakSeconds", "", "serving: a soak of this many seconds after the other points, one open-loop load at "
            + "the largest `bench.rate` (or 0.8 of the SLA boundary), cut into windows; latency and memory trends with "
            + "verdicts. At least 180 for what the field calls a soak"),
    SOAK_WINDOW_SECONDS("bench.soakWindowSeconds", "10", "serving: the soak's window; a trend needs at least 5 windows"),
    ABLATION("bench.ablation", "false", "serving: run the load again with parts replaced (a no-op engine, fixed tokens, "
            + "outputs unread) at the largest `bench.rate` (or 0.8 of the SLA boundary); each part's cost by difference");

    private final Option.Definition definition;

    ServeSetting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }

    /**
     * What to serve after the sweep.
     *
     * @param defaultSeq        the length a request is padded to unless {@code bench.serveSeq} says: the sweep's smallest
     * @param samplesPerRequest the samples a request carries: the sweep's batch when exactly one was given, else 1
     * @param seed              the run's seed, for the arrivals
     */
    public static ServeOptions read(Properties p, int defaultSeq, int samplesPerRequest, long seed) {
        List<Integer> concurrencies = CONCURRENCY.userValue(p).isPresent() ? PropertyValues.positiveInts(CONCURRENCY, p) : List.of();
        List<Double> rates = PropertyValues.doubles(RATE, p);
        List<Double> waits = PropertyValues.doubles(MAX_WAIT_MS, p);
        Double sla = SLA_P99_MS.userValue(p).isPresent() ? PropertyValues.parseDouble(SLA_P99_MS, p) : null;
        if (!waits.isEmpty() && rates.isEmpty() && sla == null) {
            throw new BenchmarkException("-Dbench.maxWaitMs needs arrival rates to batch: add -Dbench.rate=50,100 or "
                    + "-Dbench.sla.p99Ms=50 (to search the largest rate each max wait carries)");
        }
        int seq = SERVE_SEQ.userValue(p).isPresent() ? PropertyValues.positiveInt(SERVE_SEQ, p) : defaultSeq;
        double seconds = PropertyValues.parseDouble(SERVE_SECONDS, p);
        return new ServeOptions(concurrencies, rates, Arrivals.parse(ARRIVALS.value(p)), waits,
                PropertyValues.positiveInt(MAX_BATCH, p), sla, samplesPerRequest, seq, seconds, seed,
                PropertyValues.parseDouble(SLA_MAX_ERROR_RATE, p),
                SOAK_SECONDS.userValue(p).isPresent() ? PropertyValues.parseDouble(SOAK_SECONDS, p) : 0,
                PropertyValues.parseDouble(SOAK_WINDOW_SECONDS, p), PropertyValues.bool(ABLATION, p));
    }
}
