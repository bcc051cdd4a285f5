package io.inferbench.engine;

/**
 * One inference engine: the seam every engine sits behind. Each implementation lives in a package of its own under
 * {@code engine/} (the only code that imports the engine's API), is found through {@link Engines} by its
 * {@link EngineProvider}, and declares what it can do in {@link Capabilities}.
 *
 * <p>{@link #open} does all validation a sweep needs up front (model loads, inputs are usable, the device can be
 * used) and throws {@link io.inferbench.BenchmarkException} with the rule and the fix otherwise. It never
 * falls back to another device.
 */
public interface InferenceEngine {
    /** The name used in {@code -Dbench.backend} and in results. */
    String name();

    /** The native engine's version, e.g. {@code 1.23.2}. */
    String engineVersion();

    /**
     * Makes every session this engine opens from now on in this process run on one shared intra-op thread pool of
     * {@code intraOpThreads}, instead of a pool each: what a fork holding two models' sessions needs (an A/B run's
     * {@code passes} mode), where two pools' threads, one spinning after its pass while the other's work, would fight
     * for the same cores. Called before anything else of the engine's in the process. With one thread of each kind
     * there is no pool, and nothing to share.
     *
     * @throws io.inferbench.BenchmarkException where the engine cannot share one any more (its native state was made
     *         first); an engine whose pool is the process's anyway does nothing
     */
    default void shareThreadPool(int intraOpThreads, int interOpThreads) {
    }

    /** What build of the engine is loaded, e.g. its version and the execution providers compiled in. */
    default String buildInfo() {
        return name() + " " + engineVersion();
    }

    InferenceSession open(SessionSpec spec);

    /**
     * Opens a decoder for generation, its key/value cache paired by name or by {@code pairs}
     * ({@link io.inferbench.inputs.DecoderPlanner}); refuses, naming the fix, a model it cannot drive.
     */
    default DecoderSession openProfiledDecoder(SessionSpec spec, java.util.List<io.inferbench.inputs.KvPair> pairs,
                                               java.nio.file.Path traceDir) {
        throw new io.inferbench.BenchmarkException(name() + " does not profile a decoder's passes op by op");
    }

    default DecoderSession openDecoder(SessionSpec spec, java.util.List<io.inferbench.inputs.KvPair> pairs) {
        throw new io.inferbench.BenchmarkException(name() + " cannot run generation");
    }

    /**
     * Profiled passes, on a session of its own made with the engine's profiler: {@code warmup} passes, then
     * {@code passes} more, all on {@code batch}, all in the trace written under {@code traceDir} (the reader drops the
     * warm-up). Untimed by the results; nothing is measured with this session. Empty when the engine has no profiler
     * this harness can read.
     */
    default java.util.Optional<java.nio.file.Path> profilePass(SessionSpec spec, TokenBatch batch, int warmup, int passes,
                                                               java.nio.file.Path traceDir) {
        return java.util.Optional.empty();
    }

    /**
     * The passes of a profile this engine's profiler wrote ({@link #profilePass}, {@link DecoderSession#endProfiling}),
     * read from the engine's own file format. Refuses a file that is not one, naming it.
     */
    default OpTrace.Recorded readProfile(java.nio.file.Path file) {
        throw new io.inferbench.BenchmarkException(name() + " has no profiler this harness reads; " + file + " cannot be read");
    }

    /**
     * This machine's peaks with this engine: a large matrix product, a large element-wise pass, and a near-empty call,
     * each timed over about a second. Throws {@link io.inferbench.BenchmarkException} when the device cannot be used.
     */
    default EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads) {
        return calibrate(device, intraOpThreads, interOpThreads, EnginePeaks.SECONDS_PER_MEASURE);
    }

    /**
     * The same measures as {@link #calibrate}, each timed over about {@code secondsPerMeasure}: a short one re-checks
     * cached peaks on every run.
     */
    EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads, double secondsPerMeasure);

    /**
     * What {@code failure} (one throwable of a cause chain; {@link Engines#classify} walks the chain) was, by its type: an
     * engine adds its own exception types to {@link #classifyCommon}'s. Null when it is not one this engine knows.
     */
    default FailureKind classify(Throwable failure) {
        return classifyCommon(failure);
    }

    /** The harness's refusals ({@link io.inferbench.BenchmarkException}) and the JVM's {@link OutOfMemoryError}. */
    static FailureKind classifyCommon(Throwable failure) {
        if (failure instanceof io.inferbench.BenchmarkException) {
            return FailureKind.REFUSAL;
        }
        return failure instanceof OutOfMemoryError ? FailureKind.OUT_OF_MEMORY : null;
    }
}
