package io.inferbench.backend;

import io.inferbench.BenchmarkException;
import io.inferbench.model.ModelSource;
import io.inferbench.model.Precision;

import java.nio.file.Path;
import java.util.List;

/** Looks engines up by the name used in {@code -Dbench.backend}. */
public final class Backends {
    public static final List<String> NAMES = List.of(OnnxRuntimeBackend.NAME, DjlPyTorchBackend.NAME);

    private Backends() {
    }

    /**
     * Whether an engine loads a model of this kind: both run the float32 built-ins; only ONNX Runtime their int8 and
     * float16 variants (ONNX graphs; DJL builds the built-ins from their float32 weights); ONNX Runtime loads
     * {@code .onnx} files, DJL's PyTorch engine TorchScript files.
     */
    public static boolean canLoad(String backend, ModelSource source) {
        return whyNot(backend, source) == null;
    }

    /** Why {@code backend} does not load {@code source}, or null when it does. */
    public static String whyNot(String backend, ModelSource source) {
        if (source instanceof ModelSource.Builtin builtin) {
            return builtin.precision() == Precision.FP32 || OnnxRuntimeBackend.NAME.equals(backend) ? null
                    : backend + " builds only the float32 built-ins; " + builtin.name() + " is an ONNX graph for onnxruntime";
        }
        if (source instanceof ModelSource.BuiltinDecoder) {
            return null;
        }
        if (source instanceof ModelSource.OnnxFile) {
            return OnnxRuntimeBackend.NAME.equals(backend) ? null : backend + " does not load ONNX files";
        }
        return DjlPyTorchBackend.NAME.equals(backend) ? null : backend + " does not load TorchScript files";
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
