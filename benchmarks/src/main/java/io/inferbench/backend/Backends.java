package io.inferbench.backend;

import io.inferbench.BenchmarkException;

import java.util.List;

/** Looks engines up by the name used in {@code -Dbench.backend}. */
public final class Backends {
    public static final List<String> NAMES = List.of(OnnxRuntimeBackend.NAME, DjlPyTorchBackend.NAME);

    private Backends() {
    }

    public static InferenceBackend byName(String name) {
        if (OnnxRuntimeBackend.NAME.equals(name)) {
            return new OnnxRuntimeBackend();
        }
        if (DjlPyTorchBackend.NAME.equals(name)) {
            return new DjlPyTorchBackend();
        }
        throw new BenchmarkException("Unknown backend '" + name + "': expected one of " + NAMES);
    }
}
