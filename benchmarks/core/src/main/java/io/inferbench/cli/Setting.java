package io.inferbench.cli;

import io.inferbench.engine.Engines;
import io.inferbench.option.Option;

import java.util.List;

/**
 * The run's own properties (what is measured, how, and where it goes), each with its one default and its meaning. The
 * other capabilities own theirs ({@link Settings#all()} lists every {@link Option}): docs/options.md's table must match
 * them all (a test checks it), and unknown names in inferbench's namespaces are checked against them.
 *
 * <p>Defaults are text as a user would type them. An empty default means "not set", and the meaning says what
 * that does. Relative paths in defaults are relative to the repository root; relative paths a user gives are
 * relative to the folder Maven was started in. The Maven build passes on only the properties the user set
 * ({@link MavenLauncher}), so nothing here is repeated in a pom.
 */
public enum Setting implements Option.Defined {
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
    HARNESS_LIBRARIES("bench.harnessLibraries", "borrow", "what `bench.target`'s code may take from the harness: "
            + "`borrow` (from the command line), a class or resource its class path lacks comes from the harness's, as for "
            + "code compiled against this repository's class path (each cell names what it borrowed); `hidden` (what the "
            + "Maven plugin sets, with your project's whole class path), nothing but the API: your code sees the JDK, "
            + "`io.inferbench.api` and its own class path (docs/targets.md)"),
    LIBRARY_CONFLICT("bench.libraryConflict", "refuse", "with the Maven plugin, a library with native code that your "
            + "project and the harness's engines both need at different versions, in a run that measures an engine "
            + "beside your target (other libraries load apart, each at its own version): `refuse` names it before "
            + "measuring, `harness` times your code on the harness's version, `user` runs the harness on yours "
            + "(docs/your-project.md)"),
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
    CONCURRENT("bench.concurrent", "wait", "another inferbench run measuring on this machine: `wait` for it to finish "
            + "(saying so), or `allow`, measure beside it, and the run's first lines say its numbers were measured beside "
            + "another run"),
    EXIT_CODE("bench.exitCode", "maven", "what the plugin's goals (`run`, `gate`, `compare`) end Maven with when inferbench's "
            + "exit code is not 0: `maven`, a failed build (Maven's exit code 1, the message naming inferbench's code); "
            + "`inferbench`, Maven's JVM ends with inferbench's own code (1 a finding, 2 bad input, 3 a crash, 4 undecided), "
            + "for a workflow that tells them apart (docs/ci-workflow.md). `exec:java` always ends with inferbench's code"),
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
            + "during each measurement; empty means the one on the PATH (for tests, and machines where it lives elsewhere)");

    /** An A/B run's A ({@code io.inferbench.compare.AbSetting}), for the plugin, which completes A's class path. */
    public static final String AB_BASELINE_PROPERTY = io.inferbench.compare.AbSetting.AB_BASELINE.property();
    /** Property prefixes that belong to inferbench: a name with one of them that is not listed here is refused. */
    public static final List<String> OWNED_PREFIXES = List.of("bench.", "compare.", "merge.", "fleet.", "gate.");

    private final Option.Definition definition;

    Setting(String property, String defaultValue, String meaning) {
        this.definition = new Option.Definition(property, defaultValue, meaning);
    }

    @Override
    public Option.Definition definition() {
        return definition;
    }

    /** The prefix of a target's own settings, {@code -Dbench.target.NAME=VALUE}: any NAME is the target's to read. */
    public static final String TARGET_PROPERTY_PREFIX = "bench.target.";

    /** True for names in inferbench's own namespaces ({@link #OWNED_PREFIXES}). */
    public static boolean owned(String property) {
        return OWNED_PREFIXES.stream().anyMatch(property::startsWith);
    }
}
