package io.inferbench.api;

import java.nio.file.Path;

/** What the harness tells a target when it opens ({@link InferenceTarget#open}). */
public interface TargetContext {
    /** The device the run asked for ({@code -Dbench.device}): {@code cpu}, {@code cuda:0}. Yours to use and synchronize. */
    String device();

    /** The threads the run gives an engine ({@code -Dbench.threads}): what your engine's sessions should be configured with. */
    int threads();

    /** The run's seed ({@code -Dbench.seed}). */
    long seed();

    /**
     * The model the run names ({@code -Dbench.model}), resolved to a file: a built-in's generated ONNX file, or your
     * file; null when the run names none ({@code -Dbench.model=none}, the default with a target).
     */
    Path modelPath();

    /** {@code -Dbench.target.NAME=VALUE}, or {@code defaultValue} when not given: your own settings, recorded with the run. */
    String property(String name, String defaultValue);

    /** Where the parts of each call are marked, each into its own histogram. */
    Stages stages();
}
