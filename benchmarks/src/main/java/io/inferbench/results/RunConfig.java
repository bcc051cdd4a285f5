package io.inferbench.results;

import io.inferbench.measure.MeasurePolicy;

import java.util.List;
import java.util.Map;

/**
 * Everything needed to reproduce a run: the resolved sweep, counts, threads, seed, and the exact commands.
 *
 * @param warmupPasses  a fixed warm-up count per cell and fork ({@code -Dbench.warmup}), or null: until steady by
 *                      {@code measurePolicy}
 * @param measuredPasses a fixed measured count per cell and fork ({@code -Dbench.iterations}), or null: until precise by
 *                      {@code measurePolicy}
 * @param isolation    {@code model}: one fresh JVM per engine, device and model per fork round, running that model's cells
 *                     in a seeded order; {@code cell}: one fresh JVM per cell per round. Null in runs before schema 8,
 *                     which were {@code cell}
 * @param measurePolicy the warm-up and stop rules every cell ran under; null before schema 8 (fixed counts)
 * @param malloc       {@code reuse} or {@code system} ({@code -Dbench.malloc}); null before schema 8
 * @param forkAllocatorEnvironment the allocator variables in the fork JVMs' environment ({@code MALLOC_*},
 *                     {@code GLIBC_TUNABLES}, {@code LD_PRELOAD}): those {@code malloc} added or the user had set
 * @param skippedPairs (backend, model) pairs not planned because the engine does not load that model format
 *                     (ONNX Runtime loads .onnx, DJL TorchScript .pt; both run the built-ins)
 * @param mavenCommand the Maven arguments, as the mvn launcher exported them ({@code MAVEN_CMD_LINE_ARGS}),
 *                     or null when the run was not started by Maven
 * @param jvmCommand   the host JVM's full command line
 * @param hostLabel    {@code -Dbench.hostLabel}: what a fleet report calls this machine; null when not given
 * @param shard        {@code -Dbench.shard=I/N}: which part of which plan this run measured; null for a whole plan
 * @param shards       in a run merged from shards: each shard's part and run; null otherwise
 * @param forkDeparture {@code -Dbench.forkDeparture}: the factor beyond which a fork departing from its siblings was
 *                     measured again in a fresh JVM; null when off, or in runs before it existed
 * @param cellsPerJvm  {@code -Dbench.cellsPerJvm}: the most cells one fork JVM ran; null for all of a model's cells
 * @param forkEngineEnvironment the variables that chose an engine's kernels in the fork JVMs ({@code ATEN_CPU_CAPABILITY}):
 *                     what {@code -Dbench.torchCpuKernels} added or the user had set; empty when PyTorch chose; null in
 *                     runs before it existed
 * @param jitCompilation {@code -Dbench.jitCompilation}: {@code foreground} when the fork JVMs compiled in the foreground
 *                     while a cell's passes ran, {@code background} when not; null in runs before it existed (background)
 */
public record RunConfig(
        List<String> backends,
        List<String> devices,
        List<ModelInfo> models,
        List<Integer> seqLens,
        String bucketsFile,
        List<Integer> batches,
        Integer warmupPasses,
        Integer measuredPasses,
        int forks,
        int intraOpThreads,
        int interOpThreads,
        long seed,
        boolean allowCpuFallback,
        String forkJvmArgs,
        String isolation,
        MeasurePolicy measurePolicy,
        String malloc,
        Map<String, String> forkAllocatorEnvironment,
        List<String> skippedPairs,
        String mavenCommand,
        String jvmCommand,
        String hostLabel,
        ShardInfo shard,
        List<ShardInfo> shards,
        Double forkDeparture,
        Integer cellsPerJvm,
        Map<String, String> forkEngineEnvironment,
        String jitCompilation) {

    public RunConfig(List<String> backends, List<String> devices, List<ModelInfo> models, List<Integer> seqLens,
                     String bucketsFile, List<Integer> batches, Integer warmupPasses, Integer measuredPasses, int forks,
                     int intraOpThreads, int interOpThreads, long seed, boolean allowCpuFallback, String forkJvmArgs,
                     String isolation, MeasurePolicy measurePolicy, String malloc, Map<String, String> forkAllocatorEnvironment,
                     List<String> skippedPairs, String mavenCommand, String jvmCommand) {
        this(backends, devices, models, seqLens, bucketsFile, batches, warmupPasses, measuredPasses, forks, intraOpThreads,
                interOpThreads, seed, allowCpuFallback, forkJvmArgs, isolation, measurePolicy, malloc, forkAllocatorEnvironment,
                skippedPairs, mavenCommand, jvmCommand, null, null, null, null, null, null, null);
    }

    /** As before {@code jitCompilation} was recorded: HotSpot's default, the JIT in the background. */
    public RunConfig(List<String> backends, List<String> devices, List<ModelInfo> models, List<Integer> seqLens,
                     String bucketsFile, List<Integer> batches, Integer warmupPasses, Integer measuredPasses, int forks,
                     int intraOpThreads, int interOpThreads, long seed, boolean allowCpuFallback, String forkJvmArgs,
                     String isolation, MeasurePolicy measurePolicy, String malloc, Map<String, String> forkAllocatorEnvironment,
                     List<String> skippedPairs, String mavenCommand, String jvmCommand, String hostLabel, ShardInfo shard,
                     List<ShardInfo> shards, Double forkDeparture, Integer cellsPerJvm, Map<String, String> forkEngineEnvironment) {
        this(backends, devices, models, seqLens, bucketsFile, batches, warmupPasses, measuredPasses, forks, intraOpThreads,
                interOpThreads, seed, allowCpuFallback, forkJvmArgs, isolation, measurePolicy, malloc, forkAllocatorEnvironment,
                skippedPairs, mavenCommand, jvmCommand, hostLabel, shard, shards, forkDeparture, cellsPerJvm,
                forkEngineEnvironment, null);
    }

    /** The same configuration as a merge of {@code parts}: no shard of its own, every shard listed. */
    public RunConfig merged(List<ShardInfo> parts) {
        return new RunConfig(backends, devices, models, seqLens, bucketsFile, batches, warmupPasses, measuredPasses, forks,
                intraOpThreads, interOpThreads, seed, allowCpuFallback, forkJvmArgs, isolation, measurePolicy, malloc,
                forkAllocatorEnvironment, skippedPairs, mavenCommand, jvmCommand, hostLabel, null, List.copyOf(parts),
                forkDeparture, cellsPerJvm, forkEngineEnvironment, jitCompilation);
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

    /** A model as benchmarked: the name the user gave, its SHA-256, and how it was made. */
    public record ModelInfo(String name, String sha256, long sizeBytes, String description) {
    }
}
