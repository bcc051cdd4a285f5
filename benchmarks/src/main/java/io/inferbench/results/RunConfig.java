package io.inferbench.results;

import java.util.List;

/**
 * Everything needed to reproduce a run: the resolved sweep, counts, threads, seed, and the exact commands.
 *
 * @param skippedPairs (backend, model) pairs not planned because the engine does not load that model format
 *                     (ONNX Runtime loads .onnx, DJL TorchScript .pt; both run the built-ins)
 * @param mavenCommand the Maven arguments, as the mvn launcher exported them ({@code MAVEN_CMD_LINE_ARGS}),
 *                     or null when the run was not started by Maven
 * @param jvmCommand   the host JVM's full command line
 */
public record RunConfig(
        List<String> backends,
        List<String> devices,
        List<ModelInfo> models,
        List<Integer> seqLens,
        String bucketsFile,
        List<Integer> batches,
        int warmupPasses,
        int measuredPasses,
        int forks,
        int intraOpThreads,
        int interOpThreads,
        long seed,
        boolean allowCpuFallback,
        String forkJvmArgs,
        List<String> skippedPairs,
        String mavenCommand,
        String jvmCommand) {

    /** A model as benchmarked: the name the user gave, its SHA-256, and how it was made. */
    public record ModelInfo(String name, String sha256, long sizeBytes, String description) {
    }
}
