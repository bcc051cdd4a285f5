package io.inferbench.backend;

import io.inferbench.BenchmarkException;

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
    public static boolean canLoad(String backend, io.inferbench.model.ModelSource source) {
        if (source instanceof io.inferbench.model.ModelSource.Builtin) {
            return true;
        }
        if (OnnxRuntimeBackend.NAME.equals(backend)) {
            return source instanceof io.inferbench.model.ModelSource.OnnxFile;
        }
        return DjlPyTorchBackend.NAME.equals(backend) && source instanceof io.inferbench.model.ModelSource.TorchScriptFile;
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
