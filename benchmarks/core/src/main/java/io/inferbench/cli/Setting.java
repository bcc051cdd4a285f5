package io.inferbench.cli;

import io.inferbench.engine.Engines;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Every property a user can set, with its one default and its meaning: the single source that {@link Settings}
 * reads, that README.md's options table must match (a test checks it), and that unknown {@code bench.*} and
 * {@code compare.*} names are checked against.
 *
 * <p>Defaults are text as a user would type them. An empty default means "not set", and the meaning says what
 * that does. Relative paths in defaults are relative to the repository root; relative paths a user gives are
 * relative to the folder Maven was started in. The Maven build passes on only the properties the user set
 * ({@link MavenLauncher}), so nothing here is repeated in a pom.
 */
public enum Setting {
    MODEL("bench.model", "tiny", "`tiny` (hidden 128, 2 layers, 4 heads), `base` (hidden 768, 6 layers, 8 heads), either with "
            + "`-int8` or `-fp16` (precision variants), a path to an `.onnx` file or to a TorchScript `.pt` file (which "
            + "engine loads which: docs/models.md), or, for generation, `tiny-decoder`, `base-decoder`, `tiny-seq2seq` or an optimum "
            + "export folder (docs/generation.md); comma-separate several"),
    DEVICE("bench.device", "cpu", "`cpu`, `cuda` or `cuda:N` (needs `-Pgpu`: docs/models.md); comma-separate several"),
    BACKEND("bench.backend", String.join(",", Engines.names()), "the engines: " + Engines.describe()),
    SEQ("bench.seq", "", "sequence lengths, e.g. `64,256`; empty means the lengths in `bench.buckets`"),
    SEQ_AXIS("bench.seqAxis", "", "the input axis the sequence lengths bind, e.g. `frames`; empty means the axis the token "
            + "inputs share, and a model with neither runs batch only (docs/models.md)"),
    DIMS("bench.dims", "", "a size for every other dynamic input axis, e.g. `height=64,width=64` (docs/models.md)"),
    INPUTS("bench.inputs", "", "an input spec, JSON: each input's type, shape and values (`normal`, `ids`, `{\"npy\": "
            + "\"file.npy\"}`, ...); what a TorchScript model needs, and a choice for any model (docs/models.md)"),
    GENERATE("bench.generate", "", "generation with a decoder (`tiny-decoder`, `base-decoder`, an ONNX export with its "
            + "key/value cache, or an encoder-decoder: `tiny-seq2seq` or an export folder): this many new tokens per sequence, one prefill then decode steps, at each prompt length "
            + "(`bench.seq`) and batch; reports TTFT, step latency, tokens/s and each phase's verdict (docs/generation.md). "
            + "Under load (`bench.rate`, `bench.batching`), `MIN-MAX` draws each request's new tokens, seeded"),
    KV_PAIRS("bench.kvPairs", "", "generation: cache inputs paired with the outputs that hold their next value, "
            + "`past:present,...`, for a decoder whose names are not `past...`/`present...` (docs/generation.md)"),
    SAMPLING("bench.sampling", "greedy", "generation: how each token is picked, `greedy` or "
            + "`temperature=T,topK=K,topP=P` (any of them; seeded), the pick timed as its own phase (docs/generation.md)"),
    TARGET("bench.target", "", "your own inference code in place of an engine: classes implementing "
            + "`io.inferbench.api.InferenceTarget`, comma-separated, each a series like an engine; their model is `none` "
            + "unless `bench.model` names one (docs/targets.md)"),
    CLASSPATH("bench.classpath", "", "where `bench.target`'s classes come from: directories and jars, separated by `:` "
            + "(your project's `target/classes`, its jar); loaded in the run's JVM and every fork JVM, hashed into the run's "
            + "conditions. `-Dbench.target.NAME=VALUE` gives your target its own settings (docs/targets.md)"),
    LIBRARY_CONFLICT("bench.libraryConflict", "refuse", "with the Maven plugin, a library your project and the harness "
            + "both need at different versions: `refuse` names it before measuring, `harness` times your code on the "
            + "harness's version, `user` runs the harness on yours (docs/your-project.md)"),
    BUCKETS("bench.buckets", "buckets/default.buckets", "bucket file: one sequence length per line (`64`, `256`, `512`)"),
    BATCH("bench.batch", "1,2,3,4,5,6,7,8", "batch sizes"),
    WARMUP("bench.warmup", "", "warm-up passes per cell and fork: empty means until steady (see How the numbers are made); "
            + "a number is a fixed count. Run and reported separately, never in the results"),
    ITERATIONS("bench.iterations", "", "measured passes per cell and fork: empty means until the p50 is precise "
            + "(`bench.precision`); a number is a fixed count"),
    PRECISION("bench.precision", "2", "a fork stops measuring a cell once the p50's distribution-free 95% interval is within "
            + "± this many percent of it"),
    RESOLVE("bench.resolve", "p50", "the highest percentile every fork must resolve before it may stop: `p50`, `p99` (100 "
            + "passes per fork, within `bench.measureCapSeconds`: for a p99 gate raise the cap to 100 x the slowest p50, "
            + "docs/ci-workflow.md) or `p99.9` (1000)"),
    WARMUP_TOLERANCE("bench.warmupTolerance", "5", "warm-up is steady once a window's median is no more than this many "
            + "percent below the previous window's, with the JIT quiet"),
    WARMUP_CAP_SECONDS("bench.warmupCapSeconds", "5", "the longest warm-up of a cell in a fork, in seconds"),
    MEASURE_CAP_SECONDS("bench.measureCapSeconds", "1.5", "the longest measurement of a cell in a fork, in seconds"),
    FORK_DEPARTURE("bench.forkDeparture", "1.5", "with 3 forks or more, a fork whose p50 departs from the median of the "
            + "cell's fork p50s by more than this factor (and its own interval) is measured again in a fresh JVM, the "
            + "departed fork kept in run.json's `departedForks`; when the fresh JVM agrees with a fork that departed as "
            + "fast, its siblings are measured again too (`doubted`); `off` keeps every fork as measured"),
    CALL_TIMEOUT_SECONDS("bench.callTimeoutSeconds", "auto", "the longest one call may run in a fork JVM (opening the "
            + "session, preparing a cell, one timed pass or generation) before its cell fails as `timed out after N s`, "
            + "the JVM is stopped and the other cells go on in a fresh one; `auto` is 20 times the slowest unit the "
            + "preflight timed at the plan's largest shape, and never under 120 s, so a real model's slow pass is not cut short"),
    FORKS("bench.forks", "3", "fork rounds: each runs every cell once in fresh JVMs, interleaved across the sweep; "
            + "histograms are merged and also kept per fork"),
    ISOLATION("bench.isolation", "model", "`model`: one fresh JVM per engine, device and model per round, its cells in a "
            + "seeded order; `cell`: one fresh JVM per cell per round (each cell its own cold start)"),
    CELLS_PER_JVM("bench.cellsPerJvm", "all", "with `bench.isolation=model`, the most cells one fork JVM runs: a round's "
            + "seeded order is cut into runs of this many cells, each in a fresh JVM; `all` runs a model's cells in one JVM. "
            + "Shorter-lived JVMs guard against a process that turns slow as it ages, for about 2.5 s per extra JVM "
            + "(measured: docs/statistics-and-compare.md)"),
    MALLOC("bench.malloc", "reuse", "glibc's allocator in the JVMs that measure: `reuse` keeps freed memory in the process "
            + "(`MALLOC_MMAP_THRESHOLD_`, `MALLOC_TRIM_THRESHOLD_`, `MALLOC_ARENA_MAX=1`; an engine that frees "
            + "its tensors otherwise page-faults them in on every pass), `system` is glibc's default. Never overrides "
            + "allocator variables you set; recorded"),
    THREADS("bench.threads", "", "intra-op threads (both engines); empty means one per available processor. The number in "
            + "effect is recorded"),
    INTEROP_THREADS("bench.interopThreads", "1", "inter-op threads (the engine's pool that runs independent "
            + "operators side by side); recorded"),
    NATIVE_CACHE("bench.nativeCache", "benchmarks/target/native-cache", "where engines and libraries that extract their "
            + "natives at first use put them (an engine's natives, the tokenizer's library), once per machine"),
    SEED("bench.seed", "42", "seed of the built-in model's weights and of the token ids"),
    RESULTS("bench.results", "results", "where runs are written; `results/latest` and `results/previous` link to the two newest"),
    CACHE("bench.cache", "benchmarks/target/model-cache", "where built-in models are generated (once per preset and seed)"),
    ALLOW_CPU_FALLBACK("bench.allowCpuFallback", "false", "on CUDA, let an engine that places a model node by node put "
            + "the nodes it cannot run on the GPU on the CPU (recorded in the provider); otherwise such a model is refused"),
    JVM_ARGS("bench.jvmArgs", "-Xmx4g", "extra JVM arguments for the forked JVMs; recorded, printed on the sweep's first "
            + "line and named by `compare` when they differ"),
    JIT_COMPILATION("bench.jitCompilation", "foreground", "when a fork JVM's JIT compiles while a cell's passes run: "
            + "`foreground` (from a cell's warm-up to the end of its measurement, a compiler directive makes the thread that "
            + "made a method hot wait for its code, so no compiler thread runs beside the engine: on 2 cores one did during "
            + "13 of 72 measurements of a sweep, at any cell of a JVM, and tiny's seq 64 batch 1 p99 read up to 4x the "
            + "bare loop's); `background` is HotSpot's default. Between cells the JIT stays in the background; recorded"),
    BASELINE("bench.baseline", "", "a `run.json` to compare the new run with, right after the sweep"),
    VERBOSE("bench.verbose", "false", "also print JMH's and the forked JVMs' own output on the console (it always goes to "
            + "the run's `console.log`)"),
    TRACE("bench.trace", "false", "print the stack trace with an error"),
    SKIP("bench.skip", "false", "`true` skips the benchmark run that `mvn verify` starts (tests still run): "
            + "`mvn install -DskipTests -Dbench.skip=true` installs every artifact without measuring"),
    PROFILE("bench.profile", "true", "after the sweep: measure this machine's peaks (cached) and each model's fixed cost per "
            + "call, profile each cell, place every cell on the roofline and check every verdict against it"),
    MEMORY_BUDGET_MB("bench.memoryBudgetMb", "", "a memory budget in MiB: each series' peak resident set is fitted against "
            + "batch and the largest batch predicted to fit it is reported (marked extrapolated beyond the largest batch swept); "
            + "on CUDA the GPU's memory is the budget when this is not given"),
    SHARD("bench.shard", "", "`I/N`: run the I-th of N parts of the plan (1-based), balanced by predicted cost; `merge` "
            + "joins the parts. Needs `bench.threads`, and runs the sweep only (no serving, workload, precision reference or "
            + "baseline: run those on the merged run)"),
    HOST_LABEL("bench.hostLabel", "", "what a fleet report calls this machine; empty means its GPU model, or its CPU identity"),
    NVIDIA_SMI("bench.nvidiaSmi", "", "on CUDA, the `nvidia-smi` that samples utilisation, memory, power and clocks at 10 Hz "
            + "during each measurement; empty means the one on the PATH (for tests, and machines where it lives elsewhere)"),

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
            + "outputs unread) at the largest `bench.rate` (or 0.8 of the SLA boundary); each part's cost by difference"),

    TEXT("bench.text", "", "real inputs: a UTF-8 file of one document per line, or `europarl` for the built-in corpus; "
            + "tokenized with `bench.tokenizer`"),
    TOKENIZER("bench.tokenizer", "", "a Hugging Face `tokenizer.json`; empty means the built-in all-MiniLM-L6-v2 WordPiece "
            + "tokenizer"),
    LENGTHS("bench.lengths", "", "real lengths without the text: a file of token counts, one per line or `length,count`"),
    MAX_LENGTH("bench.maxLength", "", "the model's longest input in tokens; longer requests are truncated and counted. Empty "
            + "means none (the built-in encoders take any length)"),
    MIXED_REQUESTS("bench.mixedRequests", "500", "requests in the measured mixed stream of a workload, per engine and model"),

    REFERENCE("bench.reference", "", "one of `bench.model`: after the sweep, every other model's outputs are compared with "
            + "its outputs on the same seeded inputs at every shape, beside their speed-up over it"),
    AGREEMENT_INPUTS("bench.agreement.inputs", "16", "output agreement: seeded input batches per (seq, batch) shape"),
    AGREEMENT_MIN_COSINE("bench.agreement.minCosine", "0.99", "output agreement: the lowest cosine similarity of any row that "
            + "still agrees"),
    AGREEMENT_MIN_TOP1("bench.agreement.minTop1", "0.99", "output agreement: the lowest share of rows with the same top-1 "
            + "class that still agrees (classifier outputs)"),

    REGIME_MEMORY_BOUND_MAX_RHO("bench.regime.memoryBoundMaxRho", "0.15", "ρ at or below this is memory-bound"),
    REGIME_COMPUTE_BOUND_MIN_RHO("bench.regime.computeBoundMinRho", "0.70", "ρ at or above this is compute-bound"),
    REGIME_MONOTONIC_TOLERANCE("bench.regime.monotonicTolerance", "0.10", "a p50 more than this fraction below a smaller "
            + "batch's makes the series inconclusive"),
    REGIME_MAX_RELATIVE_RESIDUAL("bench.regime.maxRelativeResidual", "0.15", "residual standard error of the best fit, as a "
            + "fraction of the mean p50, above which the series is too noisy"),
    REGIME_KNEE_MIN_IMPROVEMENT("bench.regime.kneeMinImprovement", "0.5", "share of the line's squared error a "
            + "flat-then-rising fit must remove to count as a knee"),
    REGIME_CONFIDENCE_LEVEL("bench.regime.confidenceLevel", "0.95", "confidence level of the slope's and ρ's intervals"),

    COMPARE_THRESHOLD("compare.threshold", "5", "a change smaller than this, in percent, is never a regression"),
    COMPARE_CONFIDENCE("compare.confidence", "0.95", "simultaneous confidence of all a comparison's intervals together"),
    COMPARE_RESAMPLES("compare.resamples", "10000", "bootstrap replicates, where a bootstrap is used (single-fork runs, forced)"),
    COMPARE_FORCE("compare.force", "false", "compare runs that were not measured with the same ruler; the report then opens "
            + "with a warning"),
    COMPARE_CODE_CHANGE("compare.codeChange", "false", "a target's code (`bench.target`) may differ between the runs: it is "
            + "the change under test, as in a pull request's gate; without it, other code is another ruler (docs/targets.md)"),

    RUNS("runs", "", "`merge`: the runs to merge, comma-separated: `run.json` files, run folders, or folders of run folders"),
    MERGE_KEEP("merge.keep", "", "`merge`: `first` or `last` keeps that run's measurement of a cell two shards both "
            + "measured; empty refuses such a merge"),
    MERGE_PARTIAL("merge.partial", "false", "`merge`: merge shards with some missing (the report lists the missing cells) "
            + "instead of exiting with 2"),
    FLEET_PRICE("fleet.pricePerHour", "", "`merge` of runs on different hardware: `NAME=PRICE,...` per hour, for the cost "
            + "per million requests (or samples) and the cheapest hardware"),
    RUN("run", "", "`analyze`: the `run.json` to analyse"),
    OUT("out", "", "`analyze`, `compare`, `merge` and `example-models`: where to write; empty means beside the run "
            + "(analyze), the candidate (compare), a new folder under `results/` (merge), or `target/example-models`"),
    COMPARE_BASELINE("baseline", "", "`compare`: the baseline's `run.json`"),
    COMPARE_CANDIDATE("candidate", "", "`compare`: the candidate's `run.json`"),
    GATE_RUN("gate.run", "results/latest", "`gate`: the run a pull request's check must have measured (its folder or "
            + "`run.json`); none there fails the gate (docs/your-project.md)"),
    GATE_MAX_AGE("gate.maxAgeMinutes", "180", "`gate`: a run that started longer ago than this is not this build's, and "
            + "fails the gate");

    /** Property prefixes that belong to inferbench: a name with one of them that is not listed here is refused. */
    public static final List<String> OWNED_PREFIXES = List.of("bench.", "compare.", "merge.", "fleet.", "gate.");

    private final String property;
    private final String defaultValue;
    private final String meaning;

    Setting(String property, String defaultValue, String meaning) {
        this.property = property;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /** The property's name, as in {@code -Dbench.batch=1,2}. */
    public String property() {
        return property;
    }

    /** The default as text; empty means "not set" (see {@link #meaning()}). */
    public String defaultValue() {
        return defaultValue;
    }

    /** What the property does, in README.md's words (Markdown). */
    public String meaning() {
        return meaning;
    }

    /** The user's value when set and not blank, else the default. */
    public String value(Properties p) {
        return userValue(p).orElse(defaultValue);
    }

    /** The user's value, when set and not blank (Maven passes an unset property as nothing, never as a default). */
    public Optional<String> userValue(Properties p) {
        String value = p.getProperty(property);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    public static Optional<Setting> byProperty(String property) {
        return Arrays.stream(values()).filter(s -> s.property.equals(property)).findFirst();
    }

    /** This setting's row of README.md's options table: {@code | `name` | `default` | meaning |}. */
    public String markdownRow() {
        return io.inferbench.engine.EngineSetting.markdownRow(property, defaultValue, meaning);
    }

    /** The prefix of a target's own settings, {@code -Dbench.target.NAME=VALUE}: any NAME is the target's to read. */
    public static final String TARGET_PROPERTY_PREFIX = "bench.target.";

    /** True for names in inferbench's own namespaces ({@link #OWNED_PREFIXES}). */
    public static boolean owned(String property) {
        return OWNED_PREFIXES.stream().anyMatch(property::startsWith);
    }
}
