package io.inferbench.runner;

import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.engine.CodeHash;
import io.inferbench.engine.Jars;
import io.inferbench.engine.SessionDefaults;
import io.inferbench.engine.UserCode;
import io.inferbench.inputs.InputOptions;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.results.RunConfig;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sweep's settings, resolved and validated before anything runs (the command line builds them from the
 * {@code bench.*} properties; see {@code io.inferbench.cli.Setting} for each one's default and meaning), by concern: what
 * to measure, the rules each cell is measured and judged by, how the fork JVMs run, how the engines' sessions are
 * opened, and where the results go. Each concern is a record of its own, so that a copy changes one concern and keeps
 * every field of the others.
 */
public record SweepOptions(Plan plan, Rules rules, ForkJvms forkJvms, Engines engines, Output output) {

    /** Largest batch x seqLen accepted: beyond this the int64 inputs alone would pass 2 GiB. */
    public static final long MAX_TOKENS_PER_BATCH = Integer.MAX_VALUE / Long.BYTES;

    /**
     * What to measure: every backend x device x model x sequence length x batch the engines can load.
     *
     * @param bucketsFile the bucket file the sequence lengths came from, or null when they were given directly
     * @param reference   the model every other one's outputs are compared with ({@code bench.reference}); null for none
     * @param leftOut     default engines left out because they cannot run on the devices asked for, each with why and how
     *                    to enable it (an engine whose GPU build is absent, on {@code cuda})
     */
    public record Plan(List<String> backends, List<String> devices, List<String> models, List<Integer> seqLens,
                       String bucketsFile, List<Integer> batches, String reference, List<String> leftOut) {
        public Plan {
            backends = List.copyOf(backends);
            devices = List.copyOf(devices);
            models = List.copyOf(models);
            seqLens = List.copyOf(seqLens);
            batches = List.copyOf(batches);
            leftOut = leftOut == null ? List.of() : List.copyOf(leftOut);
        }

        /** With nothing left out of the default engines. */
        public Plan(List<String> backends, List<String> devices, List<String> models, List<Integer> seqLens,
                    String bucketsFile, List<Integer> batches, String reference) {
            this(backends, devices, models, seqLens, bucketsFile, batches, reference, List.of());
        }
    }

    /**
     * How each cell is measured, and how its series is judged. How long each cell is warmed up and measured in each
     * fork is {@code measurePolicy}'s: until steady and precise, or fixed counts ({@code -Dbench.warmup},
     * {@code -Dbench.iterations}).
     *
     * @param forkDeparture a fork whose p50 departs from its siblings' median by more than this factor is measured again
     *                      in a fresh JVM ({@link ForkDeparture}); null never
     * @param callTimeoutSeconds the longest one call may run in a fork JVM ({@link CallWatchdog}); null for
     *                      {@link #callTimeoutSeconds(List)}'s default from the preflight's probes
     */
    public record Rules(MeasurePolicy measurePolicy, int forks, long seed, Double forkDeparture,
                        RegimeThresholds regimeThresholds, Double callTimeoutSeconds) {
        /** The shortest call timeout {@code auto} gives. */
        public static final double MIN_AUTO_CALL_TIMEOUT_SECONDS = 120;
        /** How many times the preflight's slowest unit {@code auto} allows one call. */
        public static final double AUTO_CALL_TIMEOUT_FACTOR = 20;

        public Rules(MeasurePolicy measurePolicy, int forks, long seed, Double forkDeparture,
                     RegimeThresholds regimeThresholds) {
            this(measurePolicy, forks, seed, forkDeparture, regimeThresholds, null);
        }

        /**
         * The call timeout in effect: the one asked for, or {@link #AUTO_CALL_TIMEOUT_FACTOR} times the slowest unit the
         * preflight timed (its largest shape, in practice), and never under {@link #MIN_AUTO_CALL_TIMEOUT_SECONDS}: a
         * real model's slow pass, or its first at a new shape, is not cut short, and a hung call ends in minutes.
         */
        public double callTimeoutSeconds(List<Preflight.TrialPass> trials) {
            if (callTimeoutSeconds != null) {
                return callTimeoutSeconds;
            }
            double slowestMs = trials.stream().mapToDouble(Preflight.TrialPass::passMs).max().orElse(0);
            return Math.max(MIN_AUTO_CALL_TIMEOUT_SECONDS, Math.ceil(AUTO_CALL_TIMEOUT_FACTOR * slowestMs / 1000));
        }
    }

    /**
     * How the fork JVMs that measure are run.
     *
     * @param isolation      how many fresh JVMs the sweep starts: one per model and round, or one per cell and round
     * @param cellsPerJvm    with {@link Isolation#MODEL}, the most cells one fork JVM runs before the round goes on in a
     *                       fresh one; null: all of the model's cells in one
     * @param jvmArgs        {@code -Dbench.jvmArgs}
     * @param jitCompilation whether the fork JVMs compile in the foreground while a cell's passes run
     * @param malloc         glibc's allocator in the measuring JVMs: freed memory kept for reuse, or glibc's defaults
     * @param engineEnvironment the variables the engines' own settings add to the measuring JVMs' environment
     *                       ({@link io.inferbench.engine.EngineProvider#measuringEnvironment}), worked out beside
     *                       {@code inherited}: never one the user set
     * @param inherited      the environment a measuring JVM inherits (this JVM's), read once when the options were made
     */
    public record ForkJvms(Isolation isolation, Integer cellsPerJvm, String jvmArgs, JitCompilation jitCompilation,
                           MallocPolicy malloc, Map<String, String> engineEnvironment, Map<String, String> inherited) {
        public ForkJvms {
            engineEnvironment = Collections.unmodifiableMap(new LinkedHashMap<>(engineEnvironment));
            inherited = Map.copyOf(inherited);
        }

        /** The same choices, with none of the environment they were read beside: what a plan's shards must share. */
        public ForkJvms withoutInherited() {
            return new ForkJvms(isolation, cellsPerJvm, jvmArgs, jitCompilation, malloc, engineEnvironment, Map.of());
        }

        /**
         * What the options add to a measuring JVM's environment (the forks, and the sweep JVM Maven starts): the
         * allocator's variables, then the engines'.
         */
        public Map<String, String> measuringEnvironment() {
            Map<String, String> added = new LinkedHashMap<>(malloc.environment(inherited));
            added.putAll(engineEnvironment);
            return added;
        }

        /** A fork JVM's whole environment: the inherited one, plus {@link #measuringEnvironment()}. */
        public Map<String, String> forkEnvironment() {
            Map<String, String> environment = new LinkedHashMap<>(inherited);
            environment.putAll(measuringEnvironment());
            return environment;
        }

        /** The allocator variables a fork JVM runs with: those {@link #malloc} adds, or the user's. */
        public Map<String, String> allocatorInEffect() {
            return MallocPolicy.inEffect(forkEnvironment());
        }

        /** The variables that steer an engine in a fork JVM: those {@link #engineEnvironment} adds, or the user's. */
        public Map<String, String> engineVariablesInEffect() {
            return JvmOption.inEffect(forkEnvironment(), io.inferbench.engine.Engines.environmentVariables());
        }

        /** The most cells one fork JVM runs; null for all of a group's. Only model isolation has groups of more than one. */
        public Integer cellsPerJvmInEffect() {
            return isolation == Isolation.MODEL ? cellsPerJvm : null;
        }
    }

    /**
     * How the engines' sessions are opened, in the sweep's cells and in every stage after it.
     *
     * @param intraOpThreads always the resolved number, never "engine default", so that the number recorded is the
     *                       number used
     * @param cacheDir       where the built-in models are generated
     * @param nativeCacheDir    where engines extract their natives (hundreds of MB, once)
     * @param nvidiaSmi      the binary that samples the GPU on CUDA
     * @param inputs         the axis bindings and input spec every model's sessions are opened with
     * @param userCode       a user's target code and its settings ({@code -Dbench.target}); none without a target
     */
    public record Engines(int intraOpThreads, int interOpThreads, boolean allowCpuFallback, Path cacheDir, Path nativeCacheDir,
                          String nvidiaSmi, InputOptions inputs, UserCode userCode) {
        public Engines {
            inputs = inputs == null ? InputOptions.NONE : inputs;
            userCode = userCode == null ? UserCode.NONE : userCode;
        }

        /** Without a user's code. */
        public Engines(int intraOpThreads, int interOpThreads, boolean allowCpuFallback, Path cacheDir, Path nativeCacheDir,
                       String nvidiaSmi, InputOptions inputs) {
            this(intraOpThreads, interOpThreads, allowCpuFallback, cacheDir, nativeCacheDir, nvidiaSmi, inputs, UserCode.NONE);
        }
    }

    /**
     * Where the results go, and what the console shows.
     *
     * @param verbose   also echo JMH's and the forks' own output on the console (it always goes to the run's log)
     * @param hostLabel what a fleet report calls this machine; null when not given
     * @param besideAnotherRun who else measured on this machine when this run took it anyway ({@link MachineLock},
     *                  {@code -Dbench.concurrent=allow}); null when it measured alone
     */
    public record Output(Path resultsDir, boolean verbose, String hostLabel, String besideAnotherRun) {
        /** Where the sweep's entry hands {@code besideAnotherRun} to the options it reads ({@link MachineLock}). */
        public static final String BESIDE_PROPERTY = "inferbench.besideAnotherRun";

        public Output(Path resultsDir, boolean verbose, String hostLabel) {
            this(resultsDir, verbose, hostLabel, null);
        }
    }

    /** These options with {@code newModels} in the plan in place of its models. */
    public SweepOptions withModels(List<String> newModels) {
        return new SweepOptions(new Plan(plan.backends(), plan.devices(), newModels, plan.seqLens(), plan.bucketsFile(),
                plan.batches(), plan.reference(), plan.leftOut()), rules, forkJvms, engines, output);
    }

    /** These options with {@code code} as the user's code ({@link UserCode#pair}: a {@code passes} pair's side). */
    public SweepOptions withUserCode(UserCode code) {
        return new SweepOptions(plan, rules, forkJvms, new Engines(engines.intraOpThreads(), engines.interOpThreads(),
                engines.allowCpuFallback(), engines.cacheDir(), engines.nativeCacheDir(), engines.nvidiaSmi(), engines.inputs(),
                code), output);
    }

    /** These options with the plan batch only: its lengths {@code [0]}, no bucket file (models with no swept axis). */
    public SweepOptions batchOnly() {
        return new SweepOptions(new Plan(plan.backends(), plan.devices(), plan.models(), List.of(0), null, plan.batches(),
                plan.reference(), plan.leftOut()), rules, forkJvms, engines, output);
    }

    /** Whether the plan is batch only ({@link #batchOnly}). */
    public boolean isBatchOnly() {
        return plan.seqLens().equals(List.of(0));
    }

    /** These options with the rules {@code kind} measures its cells by ({@link CellKind#policy}). */
    public SweepOptions forKind(CellKind kind) {
        return new SweepOptions(plan, new Rules(kind.policy(rules.measurePolicy()), rules.forks(), rules.seed(),
                rules.forkDeparture(), rules.regimeThresholds(), rules.callTimeoutSeconds()), forkJvms, engines, output);
    }

    /** How every session of the run is opened, the cells' and those outside the sweep (profile, agreement, serving). */
    public SessionDefaults sessionDefaults() {
        return new SessionDefaults(engines.cacheDir(), engines.nativeCacheDir(), rules.seed(), engines.intraOpThreads(),
                engines.interOpThreads(), engines.allowCpuFallback(), engines.inputs(), engines.userCode());
    }

    /**
     * The run's configuration as {@code run.json} records it, its models still to be resolved by the preflight: the
     * rules as {@link #forKind} made them, so that what is recorded is what the cells were measured by.
     *
     * @param kind         what each cell measures
     * @param shard        this run's part of a sharded plan, or null
     * @param mavenCommand the Maven arguments, or null when Maven did not start the run
     * @param jvmCommand   this JVM's command line
     */
    public RunConfig toConfig(CellKind kind, RunConfig.ShardInfo shard, String mavenCommand, String jvmCommand) {
        MeasurePolicy policy = rules.measurePolicy();
        return new RunConfig(
                new RunConfig.Plan(plan.backends(), plan.devices(), List.of(), plan.seqLens(), plan.bucketsFile(),
                        plan.batches(), Cell.skipped(this, kind), shard, null, kind.recordedName(), null),
                new RunConfig.Rules(policy.warmup().fixedPasses(), policy.stop().fixedPasses(), policy, rules.forks(),
                        rules.seed(), rules.forkDeparture()),
                new RunConfig.ForkJvms(forkJvms.isolation().label(), forkJvms.cellsPerJvmInEffect(), forkJvms.jvmArgs(),
                        forkJvms.jitCompilation().label()),
                new RunConfig.Engines(engines.intraOpThreads(), engines.interOpThreads(), engines.allowCpuFallback(),
                        forkJvms.malloc().label(), forkJvms.allocatorInEffect(), forkJvms.engineVariablesInEffect(), targets()),
                new RunConfig.Provenance(mavenCommand, jvmCommand, output.hostLabel(), output.besideAnotherRun()));
    }

    /**
     * Each target of the plan (a backend that is not a listed engine: a user's class, {@code -Dbench.target}) with the
     * SHA-256 of the code it is loaded from ({@link CodeHash}); null when the run has none.
     */
    private List<RunConfig.TargetCode> targets() {
        List<String> targets = plan.backends().stream().filter(b -> !io.inferbench.engine.Engines.names().contains(b)).toList();
        if (targets.isEmpty()) {
            return null;
        }
        List<RunConfig.CodeEntry> entries = engines.userCode().classpath().stream()
                .map(p -> new RunConfig.CodeEntry(p.toString(), CodeHash.of(p), Jars.library(p))).toList();
        String sha = CodeHash.ofAll(entries.stream().map(RunConfig.CodeEntry::sha256).toList());
        return targets.stream().map(t -> new RunConfig.TargetCode(t, entries, sha, engines.userCode().properties())).toList();
    }
}
