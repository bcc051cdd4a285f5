package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.measure.MeasurePolicy;

import java.util.List;
import java.util.Map;

/**
 * Everything needed to reproduce a run, by concern: what was planned, the rules each cell was measured by, how the fork
 * JVMs were run, the engines' threads and environment, and where the run came from. In {@code run.json} the five are
 * one flat object (each record's fields side by side under {@code config}), as they always were, so that runs of every
 * schema read alike; in code each is its own record, copied with its {@code with} methods so that no field is lost.
 */
public record RunConfig(@JsonUnwrapped Plan plan, @JsonUnwrapped Rules rules, @JsonUnwrapped ForkJvms forkJvms,
                        @JsonUnwrapped Engines engines, @JsonUnwrapped Provenance provenance) {

    public RunConfig {
        plan = plan == null ? Plan.EMPTY : plan;
        rules = rules == null ? Rules.NONE : rules;
        forkJvms = forkJvms == null ? ForkJvms.NONE : forkJvms;
        engines = engines == null ? Engines.NONE : engines;
        provenance = provenance == null ? Provenance.NONE : provenance;
    }

    /**
     * What was measured.
     *
     * @param skippedPairs (backend, model) pairs not planned because the engine does not open that model format for the
     *                     run's cells ({@code io.inferbench.engine.Capabilities}), each with why
     * @param shard        {@code -Dbench.shard=I/N}: which part of which plan this run measured; null for a whole plan
     * @param shards       in a run merged from shards: each shard's part and run; null otherwise
     * @param cellKind     what each cell measured, when not a forward pass: {@code generation}; null for the forward pass
     *                     (as in every run before the kinds existed)
     * @param plannedCells the id of every cell this run set out to measure (a shard's part), recorded before the first is
     *                     measured, so that a run stopped part-way says which cells it never measured; null in a run
     *                     written before it was recorded
     */
    public record Plan(List<String> backends, List<String> devices, List<ModelInfo> models, List<Integer> seqLens,
                       String bucketsFile, List<Integer> batches, List<String> skippedPairs, ShardInfo shard,
                       List<ShardInfo> shards, String cellKind, List<String> plannedCells) {
        static final Plan EMPTY = new Plan(List.of(), List.of(), List.of(), List.of(), null, List.of(), List.of(), null, null,
                null, null);

        public Plan withPlannedCells(List<String> ids) {
            return new Plan(backends, devices, models, seqLens, bucketsFile, batches, skippedPairs, shard, shards, cellKind,
                    List.copyOf(ids));
        }

        public Plan withModels(List<ModelInfo> resolved) {
            return new Plan(backends, devices, List.copyOf(resolved), seqLens, bucketsFile, batches, skippedPairs, shard, shards, cellKind, plannedCells);
        }

        public Plan withBatches(List<Integer> newBatches) {
            return new Plan(backends, devices, models, seqLens, bucketsFile, List.copyOf(newBatches), skippedPairs, shard, shards, cellKind, plannedCells);
        }

        public Plan withShard(ShardInfo newShard) {
            return new Plan(backends, devices, models, seqLens, bucketsFile, batches, skippedPairs, newShard, shards, cellKind, plannedCells);
        }

        /** The same plan as a merge of {@code parts}: no shard of its own, every shard listed. */
        public Plan merged(List<ShardInfo> parts) {
            return new Plan(backends, devices, models, seqLens, bucketsFile, batches, skippedPairs, null, List.copyOf(parts), cellKind, plannedCells);
        }
    }

    /**
     * How each cell was measured.
     *
     * @param warmupPasses   a fixed warm-up count per cell and fork ({@code -Dbench.warmup}), or null: until steady by
     *                       {@code measurePolicy}
     * @param measuredPasses a fixed measured count per cell and fork ({@code -Dbench.iterations}), or null: until precise
     *                       by {@code measurePolicy}
     * @param measurePolicy  the warm-up and stop rules every cell ran under; null before schema 8 (fixed counts)
     * @param forkDeparture  {@code -Dbench.forkDeparture}: the factor beyond which a fork departing from its siblings was
     *                       measured again in a fresh JVM; null when off, or in runs before it existed
     */
    public record Rules(Integer warmupPasses, Integer measuredPasses, MeasurePolicy measurePolicy, int forks, long seed,
                        Double forkDeparture) {
        /** Absent: a run written before the group, or read without it. */
        static final Rules NONE = new Rules(null, null, null, 0, 0, null);

        public Rules withCounts(Integer warmup, Integer measured, int newForks) {
            return new Rules(warmup, measured, measurePolicy, newForks, seed, forkDeparture);
        }
    }

    /**
     * How the fork JVMs that measured were run.
     *
     * @param isolation      {@code model}: one fresh JVM per engine, device and model per fork round, running that model's
     *                       cells in a seeded order; {@code cell}: one fresh JVM per cell per round. Null in runs before
     *                       schema 8, which were {@code cell}
     * @param cellsPerJvm    {@code -Dbench.cellsPerJvm}: the most cells one fork JVM ran; null for all of a model's cells
     * @param forkJvmArgs    {@code -Dbench.jvmArgs} as the forks got them, with what the sweep adds
     * @param jitCompilation {@code -Dbench.jitCompilation}: {@code foreground} when the fork JVMs compiled in the foreground
     *                       while a cell's passes ran, {@code background} when not; null in runs before it existed
     *                       (background)
     */
    public record ForkJvms(String isolation, Integer cellsPerJvm, String forkJvmArgs, String jitCompilation) {
        /** Absent: a run written before the group, or read without it. */
        static final ForkJvms NONE = new ForkJvms(null, null, null, null);

    }

    /**
     * The engines' threads and the environment the measuring JVMs ran in.
     *
     * @param malloc                   {@code reuse} or {@code system} ({@code -Dbench.malloc}); null before schema 8
     * @param forkAllocatorEnvironment the allocator variables in the fork JVMs' environment ({@code MALLOC_*},
     *                                 {@code GLIBC_TUNABLES}, {@code LD_PRELOAD}): those {@code malloc} added or the
     *                                 user had set
     * @param forkEngineEnvironment    the variables that chose an engine's kernels in the fork JVMs
     *                                 ({@code ATEN_CPU_CAPABILITY}): what {@code -Dbench.torchCpuKernels} added or the user
     *                                 had set; empty when each engine chose; null in runs before it existed
     * @param targets                  each user's target the run timed ({@code -Dbench.target}): its class and the
     *                                 SHA-256 of the code it was loaded from; null without targets
     */
    public record Engines(int intraOpThreads, int interOpThreads, boolean allowCpuFallback, String malloc,
                          Map<String, String> forkAllocatorEnvironment, Map<String, String> forkEngineEnvironment,
                          List<TargetCode> targets) {
        /** Absent: a run written before the group, or read without it. */
        static final Engines NONE = new Engines(0, 0, false, null, null, null);

        /** Without targets. */
        public Engines(int intraOpThreads, int interOpThreads, boolean allowCpuFallback, String malloc,
                       Map<String, String> forkAllocatorEnvironment, Map<String, String> forkEngineEnvironment) {
            this(intraOpThreads, interOpThreads, allowCpuFallback, malloc, forkAllocatorEnvironment, forkEngineEnvironment, null);
        }

        public Engines withIntraOpThreads(int threads) {
            return new Engines(threads, interOpThreads, allowCpuFallback, malloc, forkAllocatorEnvironment, forkEngineEnvironment,
                    targets);
        }
    }

    /**
     * A user's target, as the run loaded it: what {@code compare} holds two runs' code against.
     *
     * @param className  the class named by {@code -Dbench.target}
     * @param classpath  each {@code -Dbench.classpath} entry and the SHA-256 of its contents (a jar's bytes; a folder's
     *                   files, each relative path and its bytes, in path order)
     * @param sha256     the SHA-256 of the entries' hashes, in order: the code's identity
     * @param properties its settings ({@code -Dbench.target.NAME=VALUE})
     */
    public record TargetCode(String className, List<CodeEntry> classpath, String sha256, Map<String, String> properties) {
    }

    /**
     * One class-path entry and the SHA-256 of its contents.
     *
     * @param library the jar as a library: {@code group:artifact:version} from a Maven repository's layout, else its
     *                manifest's title and version, else its file name; absent for a folder (the user's own classes)
     */
    public record CodeEntry(String path, String sha256, String library) {
    }

    /**
     * Where the run came from.
     *
     * @param mavenCommand the Maven arguments, as the mvn launcher exported them ({@code MAVEN_CMD_LINE_ARGS}), or null
     *                     when the run was not started by Maven
     * @param jvmCommand   the host JVM's full command line
     * @param hostLabel    {@code -Dbench.hostLabel}: what a fleet report calls this machine; null when not given
     * @param besideAnotherRun another inferbench run that was measuring on this machine when this one started, measured
     *                     anyway ({@code -Dbench.concurrent=allow}): its numbers are not a solo run's; null when it
     *                     measured alone (or waited for the other to finish)
     */
    public record Provenance(String mavenCommand, String jvmCommand, String hostLabel, String besideAnotherRun) {
        /** Absent: a run written before the group, or read without it. */
        static final Provenance NONE = new Provenance(null, null, null, null);

        public Provenance(String mavenCommand, String jvmCommand, String hostLabel) {
            this(mavenCommand, jvmCommand, hostLabel, null);
        }
    }

    public RunConfig withPlan(Plan newPlan) {
        return new RunConfig(newPlan, rules, forkJvms, engines, provenance);
    }

    public RunConfig withRules(Rules newRules) {
        return new RunConfig(plan, newRules, forkJvms, engines, provenance);
    }

    public RunConfig withForkJvms(ForkJvms newForkJvms) {
        return new RunConfig(plan, rules, newForkJvms, engines, provenance);
    }

    public RunConfig withEngines(Engines newEngines) {
        return new RunConfig(plan, rules, forkJvms, newEngines, provenance);
    }

    public RunConfig withModels(List<ModelInfo> resolved) {
        return withPlan(plan.withModels(resolved));
    }

    /** The same configuration with the ids of the cells the run sets out to measure ({@link Plan#plannedCells}). */
    public RunConfig withPlannedCells(List<String> ids) {
        return withPlan(plan.withPlannedCells(ids));
    }

    /**
     * One shard of a plan.
     *
     * @param index      1-based
     * @param count      the plan's number of shards
     * @param planHash   SHA-256 of the whole plan and every setting that makes its parts comparable
     *                   ({@link io.inferbench.shard.ShardPlan#hash})
     * @param planCells  every cell of the whole plan, by id, in plan order
     * @param cells      this shard's cells, by id
     * @param runId      the run that measured it (in a merged run's list); null in the shard's own run
     */
    public record ShardInfo(int index, int count, String planHash, List<String> planCells, List<String> cells, String runId) {
        public ShardInfo withRunId(String id) {
            return new ShardInfo(index, count, planHash, planCells, cells, id);
        }
    }

    /**
     * A model as benchmarked: the name the user gave, its SHA-256, how it was made, and how its inputs were filled.
     *
     * @param inputs absent in runs from before schema 11 recorded it
     */
    public record ModelInfo(String name, String sha256, long sizeBytes, String description, ModelInputs inputs) {
        public ModelInfo(String name, String sha256, long sizeBytes, String description) {
            this(name, sha256, sizeBytes, description, null);
        }
    }

    /**
     * How a model's inputs were filled at every cell ({@code io.inferbench.inputs.InputPlan}).
     *
     * @param batchAxis  the axis {@code bench.batch} binds; null when the model's batch is fixed
     * @param seqAxis    the axis {@code bench.seq} binds; null when the model runs batch only (its cells have seqLen 0)
     *                   or its token axis is fixed
     * @param dims       every other dynamic axis's size ({@code -Dbench.dims})
     * @param specFile   the input spec ({@code -Dbench.inputs}), or null
     * @param specSha256 its SHA-256, or null
     */
    public record ModelInputs(String batchAxis, String seqAxis, java.util.Map<String, Long> dims, String specFile,
                              String specSha256, List<InputInfo> inputs) {
    }

    /**
     * One input: its name, element type, shape (numbers for fixed axes, names for bound ones) and where its values came
     * from ({@code token ids (from the token batch)}, {@code normal(0,1)}, {@code npy FILE [shape] sha256 HASH}, ...).
     */
    public record InputInfo(String name, String type, List<String> shape, String values) {
    }
}
