package io.inferbench.sweep;

import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.backend.SessionDefaults;
import io.inferbench.measure.MeasurePolicy;

import java.nio.file.Path;
import java.util.List;

/**
 * A sweep's settings, resolved and validated before anything runs (the command line builds them from the
 * {@code bench.*} properties; see {@code io.inferbench.cli.Setting} for each one's default and meaning).
 *
 * <p>How long each cell is warmed up and measured in each fork is {@code measurePolicy}'s: until steady and precise,
 * or fixed counts ({@code -Dbench.warmup}, {@code -Dbench.iterations}). {@code intraOpThreads} is always the resolved
 * number, never "engine default", so that the number recorded is the number used.
 *
 * @param bucketsFile   the bucket file the sequence lengths came from, or null when they were given directly
 * @param djlCacheDir   where DJL extracts the PyTorch natives (hundreds of MB, once)
 * @param verbose       also echo JMH's and the forks' own output on the console (it always goes to the run's log)
 * @param reference     the model every other one's outputs are compared with ({@code bench.reference}); null for none
 * @param malloc        glibc's allocator in the measuring JVMs: freed memory kept for reuse, or glibc's defaults
 * @param torchCpuKernels PyTorch's CPU kernels in the measuring JVMs: AVX2 where the CPU also has AVX-512, or PyTorch's
 *                      own choice
 * @param jitCompilation whether the fork JVMs compile in the foreground while a cell's passes run ({@link JitCompilation})
 * @param isolation     how many fresh JVMs the sweep starts: one per model and round, or one per cell and round
 * @param forkDeparture a fork whose p50 departs from its siblings' median by more than this factor is measured again in
 *                      a fresh JVM ({@link ForkDeparture}); null never
 * @param cellsPerJvm   with {@link Isolation#MODEL}, the most cells one fork JVM runs before the round goes on in a
 *                      fresh one; null: all of the model's cells in one
 */
public record SweepOptions(
        List<String> backends,
        List<String> devices,
        List<String> models,
        List<Integer> seqLens,
        String bucketsFile,
        List<Integer> batches,
        MeasurePolicy measurePolicy,
        int forks,
        int intraOpThreads,
        int interOpThreads,
        long seed,
        Path resultsDir,
        Path cacheDir,
        Path djlCacheDir,
        boolean allowCpuFallback,
        String forkJvmArgs,
        boolean verbose,
        RegimeThresholds regimeThresholds,
        String reference,
        Isolation isolation,
        MallocPolicy malloc,
        TorchCpuKernels torchCpuKernels,
        JitCompilation jitCompilation,
        String nvidiaSmi,
        io.inferbench.shard.Shard shard,
        String hostLabel,
        Double forkDeparture,
        Integer cellsPerJvm) {

    /** Largest batch x seqLen accepted: beyond this the int64 inputs alone would pass 2 GiB. */
    public static final long MAX_TOKENS_PER_BATCH = Integer.MAX_VALUE / Long.BYTES;

    /** How sessions outside the sweep (profile, agreement) are opened: as the cells' are. */
    public SessionDefaults sessionDefaults() {
        return new SessionDefaults(cacheDir, djlCacheDir, seed, intraOpThreads, interOpThreads, allowCpuFallback);
    }

    /** The allocator variables the fork JVMs run with: what {@link #malloc()} adds to this JVM's environment, or sets. */
    public java.util.Map<String, String> forkAllocatorEnvironment() {
        return MallocPolicy.inEffect(forkEnvironment());
    }

    /** What {@link #malloc()} and {@link #torchCpuKernels()} add to a measuring JVM's environment. */
    public java.util.Map<String, String> measuringEnvironment() {
        return measuringEnvironment(malloc, torchCpuKernels);
    }

    /**
     * What an allocator policy and a PyTorch kernel choice add to the environment of a JVM that measures (the forks, and
     * the sweep JVM that Maven starts), given this JVM's.
     */
    public static java.util.Map<String, String> measuringEnvironment(MallocPolicy malloc, TorchCpuKernels torchCpuKernels) {
        java.util.Map<String, String> added = new java.util.LinkedHashMap<>(malloc.environment(System.getenv()));
        added.putAll(torchCpuKernels.environment(System.getenv()));
        return added;
    }

    /** The variables that choose an engine's kernels in the fork JVMs ({@link TorchCpuKernels}): added, or the user's. */
    public java.util.Map<String, String> forkEngineEnvironment() {
        return TorchCpuKernels.inEffect(forkEnvironment());
    }

    /** A fork JVM's whole environment: this JVM's, plus {@link #measuringEnvironment()}. */
    private java.util.Map<String, String> forkEnvironment() {
        java.util.Map<String, String> environment = new java.util.HashMap<>(System.getenv());
        environment.putAll(measuringEnvironment());
        return environment;
    }

    public SweepOptions {
        backends = List.copyOf(backends);
        devices = List.copyOf(devices);
        models = List.copyOf(models);
        seqLens = List.copyOf(seqLens);
        batches = List.copyOf(batches);
    }
}
