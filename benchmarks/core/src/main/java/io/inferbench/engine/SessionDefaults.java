package io.inferbench.engine;

import io.inferbench.inputs.InputOptions;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;

import java.nio.file.Path;

/**
 * How a run opens every session outside the timed sweep (the profile, the agreement check): the same threads, seed,
 * model cache, CPU-placement rule and inputs as its cells, so that what is checked is what was measured.
 *
 * @param inputs   the user's axis bindings and input spec, applied to every model of the run
 * @param userCode a user's target code and its settings ({@code -Dbench.classpath}, {@code -Dbench.target.*}); none
 *                 without a target
 */
public record SessionDefaults(Path cacheDir, Path nativeCacheDir, long seed, int intraOpThreads, int interOpThreads,
                              boolean allowCpuFallback, InputOptions inputs, UserCode userCode) {
    public SessionDefaults {
        inputs = inputs == null ? InputOptions.NONE : inputs;
        userCode = userCode == null ? UserCode.NONE : userCode;
    }

    /** Without a user's code. */
    public SessionDefaults(Path cacheDir, Path nativeCacheDir, long seed, int intraOpThreads, int interOpThreads,
                           boolean allowCpuFallback, InputOptions inputs) {
        this(cacheDir, nativeCacheDir, seed, intraOpThreads, interOpThreads, allowCpuFallback, inputs, UserCode.NONE);
    }

    /** The session of {@code source} on {@code device}; a built-in is generated into the cache if it is not there. */
    public SessionSpec spec(ModelSource source, String device) {
        return new SessionSpec(source, new ModelResolver(cacheDir, seed).locate(source), seed, Device.parse(device),
                intraOpThreads, interOpThreads, allowCpuFallback, inputs, userCode);
    }

    public InferenceEngine backend(String name) {
        return Engines.create(name, nativeCacheDir);
    }
}
