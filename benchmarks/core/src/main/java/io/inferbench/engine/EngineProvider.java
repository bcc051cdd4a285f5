package io.inferbench.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One engine as the registry finds it ({@link Engines}, through {@link java.util.ServiceLoader}): its name, what it can
 * do, and how to make it. A new engine is a package of its own under {@code engine/} with a class implementing this, and
 * one line naming that class in {@code META-INF/services/io.inferbench.engine.EngineProvider}.
 *
 * <p>A provider is loaded by every JVM that reads the run's settings, so it must not load its engine's natives: only
 * {@link #create} and the checks that say they start the engine do.
 */
public interface EngineProvider {
    /** The name in {@code -Dbench.backend} and in results: lower case, one word. */
    String name();

    /** The engine in a few words, for the settings' documentation. */
    String description();

    Capabilities capabilities();

    /**
     * The engine.
     *
     * @param nativeCacheDir where an engine that extracts its natives at first use puts them ({@code -Dbench.nativeCache});
     *                       read once per JVM, when the engine starts
     */
    InferenceEngine create(Path nativeCacheDir);

    /**
     * Why this engine is left out of the default engines (no {@code -Dbench.backend}) on {@code devices}, or null when it
     * runs there: an engine whose GPU support is optional here says so, and the run measures the others. Asked only
     * when a GPU is among the devices, while the run's settings are read: it must not start the engine (whether the
     * engine really reaches the GPU is the preflight's to find, and its refusal names the fix).
     */
    default String leftOutByDefault(List<Device> devices, Path nativeCacheDir) {
        return null;
    }

    /** This engine's rows of {@code exec:java@gpucheck}: whether it can run on CUDA device 0 here, and the fix if not. */
    default List<GpuReadiness> gpuReadiness(Path nativeCacheDir) {
        return List.of(new GpuReadiness(name() + " on CUDA", false, "this engine has no CUDA path",
                "none: it measures on the CPU only", false));
    }

    /**
     * Whether this engine is one of the default engines ({@code -Dbench.backend}'s default) and a name {@code
     * -Dbench.backend} accepts; false for a family of engines named at run time (a user's targets, {@code -Dbench.target}).
     */
    default boolean listed() {
        return true;
    }

    /**
     * The engine called {@code name} when this provider makes engines named at run time (a user's target class, named by
     * {@code -Dbench.target}); empty otherwise, and for every name it does not make.
     */
    default java.util.Optional<EngineProvider> resolve(String name) {
        return java.util.Optional.empty();
    }

    /**
     * Sets what this engine's library reads from the process before its first use, for code of the user's that uses the
     * library in this JVM (a target, {@code -Dbench.target}): offline, with its natives in the harness's cache, so a
     * user's {@code Predictor} downloads nothing and extracts nothing twice. Loads nothing.
     */
    default void configureForUserCode(Path nativeCacheDir) {
    }

    /**
     * The properties this engine owns, documented in docs/options.md after the harness's own: an option about one
     * engine's library (its kernels, its threads' variables) belongs to the engine's module, not to the core.
     */
    default List<EngineSetting> settings() {
        return List.of();
    }

    /**
     * The variables this engine adds to the environment of the JVMs that measure, read from its {@link #settings()} in
     * {@code p} and given the environment those JVMs would otherwise inherit: never one the user has set. Called once
     * while the run's settings are read, before anything is measured, so a bad value of its settings is refused here
     * ({@link io.inferbench.BenchmarkException}, naming the property and its choices). Loads nothing.
     */
    default Map<String, String> measuringEnvironment(Properties p, Map<String, String> inherited) {
        return Map.of();
    }

    /** The variables of a fork's environment that steer this engine, for the record ({@code config.forkEngineEnvironment}). */
    default List<String> environmentVariables() {
        return List.of();
    }
}
