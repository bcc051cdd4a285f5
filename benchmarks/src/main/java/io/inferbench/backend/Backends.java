package io.inferbench.backend;

import io.inferbench.BenchmarkException;
import io.inferbench.model.ModelSource;

import java.nio.file.Path;
import java.util.List;

/** Looks engines up by the name used in {@code -Dbench.backend}. */
public final class Backends {
    public static final List<String> NAMES = List.of(OnnxRuntimeBackend.NAME, DjlPyTorchBackend.NAME);

    private Backends() {
    }

    /**
     * Whether an engine loads a model of this kind: both run the built-ins; ONNX Runtime loads {@code .onnx} files,
     * DJL's PyTorch engine TorchScript files.
     */
    public static boolean canLoad(String backend, ModelSource source) {
        if (source instanceof ModelSource.Builtin) {
            return true;
        }
        if (source instanceof ModelSource.OnnxFile) {
            return OnnxRuntimeBackend.NAME.equals(backend);
        }
        return source instanceof ModelSource.TorchScriptFile && DjlPyTorchBackend.NAME.equals(backend);
    }

    /** Refuses a name that is not an engine, listing the ones that are. */
    public static void checkName(String name) {
        if (!NAMES.contains(name)) {
            throw new BenchmarkException("Unknown backend '" + name + "': expected one of " + NAMES);
        }
    }

    /**
     * The engine called {@code name}.
     *
     * @param djlCacheDir where DJL extracts its natives; DJL reads it once per JVM, at engine start
     */
    public static InferenceBackend create(String name, Path djlCacheDir) {
        checkName(name);
        return OnnxRuntimeBackend.NAME.equals(name) ? new OnnxRuntimeBackend() : new DjlPyTorchBackend(djlCacheDir);
    }
}
