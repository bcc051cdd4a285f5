package io.inferbench.sweep;

import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.backend.SessionDefaults;

import java.nio.file.Path;
import java.util.List;

/**
 * A sweep's settings, resolved and validated before anything runs (the command line builds them from the
 * {@code bench.*} properties; see {@code io.inferbench.cli.Setting} for each one's default and meaning).
 *
 * <p>Counts are forward passes per fork: {@code warmupPasses} are run and discarded, {@code measuredPasses} are
 * recorded. {@code intraOpThreads} is always the resolved number, never "engine default", so that the number recorded
 * is the number used.
 *
 * @param bucketsFile   the bucket file the sequence lengths came from, or null when they were given directly
 * @param djlCacheDir   where DJL extracts the PyTorch natives (hundreds of MB, once)
 * @param verbose       also echo JMH's and the forks' own output on the console (it always goes to the run's log)
 * @param reference     the model every other one's outputs are compared with ({@code bench.reference}); null for none
 */
public record SweepOptions(
        List<String> backends,
        List<String> devices,
        List<String> models,
        List<Integer> seqLens,
        String bucketsFile,
        List<Integer> batches,
        int warmupPasses,
        int measuredPasses,
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
        String reference) {

    /** Largest batch x seqLen accepted: beyond this the int64 inputs alone would pass 2 GiB. */
    public static final long MAX_TOKENS_PER_BATCH = Integer.MAX_VALUE / Long.BYTES;

    /** How sessions outside the sweep (profile, agreement) are opened: as the cells' are. */
    public SessionDefaults sessionDefaults() {
        return new SessionDefaults(cacheDir, djlCacheDir, seed, intraOpThreads, interOpThreads, allowCpuFallback);
    }

    public SweepOptions {
        backends = List.copyOf(backends);
        devices = List.copyOf(devices);
        models = List.copyOf(models);
        seqLens = List.copyOf(seqLens);
        batches = List.copyOf(batches);
    }
}
