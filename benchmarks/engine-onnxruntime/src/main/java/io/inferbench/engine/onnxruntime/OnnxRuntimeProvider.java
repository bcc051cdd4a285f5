package io.inferbench.engine.onnxruntime;

import io.inferbench.engine.Capabilities;
import io.inferbench.engine.CudaLibraries;
import io.inferbench.engine.Device;
import io.inferbench.engine.EngineProvider;
import io.inferbench.engine.GpuReadiness;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.model.ModelFormat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** ONNX Runtime Java in the engine registry: it loads every ONNX graph, generates with ONNX decoders, and profiles ops. */
public final class OnnxRuntimeProvider implements EngineProvider {
    private static final Capabilities CAPABILITIES = new Capabilities(
            Set.of(ModelFormat.BUILTIN_FLOAT32, ModelFormat.BUILTIN_VARIANT, ModelFormat.BUILTIN_DECODER, ModelFormat.ONNX_FILE),
            Set.of(ModelFormat.BUILTIN_DECODER, ModelFormat.ONNX_FILE, ModelFormat.EXPORT_FOLDER),
            Set.of(Device.Kind.CPU, Device.Kind.CUDA), true, true,
            "the step's present outputs are handed to the next step as host tensors (ONNX Runtime Java has no IOBinding): "
                    + "no copy on the CPU; on CUDA every step copies the whole cache device -> host and back, inside the step's time",
            true);

    @Override
    public String name() {
        return OnnxRuntimeEngine.NAME;
    }

    @Override
    public String description() {
        return "ONNX Runtime Java";
    }

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public InferenceEngine create(Path nativeCacheDir) {
        return new OnnxRuntimeEngine();
    }

    /** The libraries ONNX Runtime 1.23's CUDA provider loads (docs/models.md). */
    static final List<String> CUDA_LIBRARIES = List.of("libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12",
            "libcurand.so.10", "libcufft.so.11", "libcudnn.so.9");

    /** Each library its CUDA provider loads, then whether the provider loads on GPU 0. */
    @Override
    public List<GpuReadiness> gpuReadiness(Path nativeCacheDir) {
        String problem = OnnxRuntimeEngine.cudaProviderProblem(0);
        List<GpuReadiness> rows = new java.util.ArrayList<>(CudaLibraries.rows(CUDA_LIBRARIES));
        rows.add(new GpuReadiness("ONNX Runtime CUDA provider", problem == null, problem == null
                ? "loads on GPU 0 (" + new OnnxRuntimeEngine().buildInfo() + ")" : problem,
                problem == null ? "" : "see the rows above; the GPU build comes with -Pgpu", true));
        return List.copyOf(rows);
    }
}
