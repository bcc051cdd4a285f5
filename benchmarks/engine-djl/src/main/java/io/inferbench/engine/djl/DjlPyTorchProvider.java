package io.inferbench.engine.djl;

import io.inferbench.engine.Capabilities;
import io.inferbench.engine.Device;
import io.inferbench.engine.EngineProvider;
import io.inferbench.engine.EngineSetting;
import io.inferbench.engine.GpuReadiness;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.model.ModelFormat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * DJL's PyTorch engine in the engine registry: it builds the float32 built-ins from their seeded weights, loads
 * TorchScript modules, and generates with the built-in decoders. Its GPU support is optional here: the natives on Maven
 * Central that this build bundles are CPU-only, so on CUDA it leaves the default engines unless a CUDA libtorch is given.
 */
public final class DjlPyTorchProvider implements EngineProvider {
    /** {@code -Dbench.torchCpuKernels}: which of PyTorch's CPU kernels the JVMs that measure run ({@link TorchCpuKernels}). */
    static final EngineSetting CPU_KERNELS = new EngineSetting("bench.torchCpuKernels", "avx2", "PyTorch's CPU kernels in "
            + "the JVMs that measure (the `djl` engine's setting): `avx2` sets `ATEN_CPU_CAPABILITY=avx2` where the CPU is "
            + "x86-64 with AVX-512, whose kernels can turn many times slower in some processes of a virtual machine for the "
            + "rest of their life (docs/findings.md); `engine` is PyTorch's own choice. Never overrides an "
            + "`ATEN_CPU_CAPABILITY` you set; recorded");

    private static final Capabilities CAPABILITIES = new Capabilities(
            Set.of(ModelFormat.BUILTIN_FLOAT32, ModelFormat.BUILTIN_DECODER, ModelFormat.TORCHSCRIPT_FILE),
            Set.of(ModelFormat.BUILTIN_DECODER),
            Set.of(Device.Kind.CPU, Device.Kind.CUDA), true, false,
            "the cache stays where PyTorch made it (on the device)", false);

    @Override
    public String name() {
        return DjlPyTorchEngine.NAME;
    }

    @Override
    public String description() {
        return "DJL's PyTorch engine";
    }

    @Override
    public Capabilities capabilities() {
        return CAPABILITIES;
    }

    @Override
    public InferenceEngine create(Path nativeCacheDir) {
        return new DjlPyTorchEngine(nativeCacheDir);
    }

    /**
     * Left out on CUDA unless a CUDA libtorch is given, saying why and how to enable it; an explicit
     * {@code -Dbench.backend=djl -Dbench.device=cuda} is refused by the preflight with the same fix instead. Decided from
     * the environment alone, without starting PyTorch: the natives this build bundles are CPU-only, so only
     * {@code PYTORCH_LIBRARY_PATH} with a CUDA {@code PYTORCH_FLAVOR} can reach a GPU. Whether that libtorch sees one
     * is the preflight's to find.
     */
    @Override
    public String leftOutByDefault(List<Device> devices, Path nativeCacheDir) {
        return leftOutByDefault(devices, System.getenv());
    }

    String leftOutByDefault(List<Device> devices, Map<String, String> environment) {
        if (devices.stream().noneMatch(Device::isCuda)) {
            return null;
        }
        String flavor = environment.getOrDefault("PYTORCH_FLAVOR", "");
        if (environment.containsKey("PYTORCH_LIBRARY_PATH") && flavor.startsWith("cu")) {
            return null;
        }
        return "its PyTorch natives are the CPU-only ones bundled here: no CUDA libtorch is given (PYTORCH_LIBRARY_PATH "
                + "with PYTORCH_FLAVOR=cu...). " + DjlPyTorchEngine.CUDA_FIX + "; DJL on the CPU: -Dbench.backend=" + name()
                + " -Dbench.device=cpu";
    }

    @Override
    public List<GpuReadiness> gpuReadiness(Path nativeCacheDir) {
        String why = DjlPyTorchEngine.cudaUnavailable(nativeCacheDir);
        return List.of(new GpuReadiness("DJL PyTorch on CUDA", why == null, why == null ? "its natives see a GPU" : why,
                why == null ? "" : "optional: without it a cuda run measures the other engines only (docs/models.md)", true));
    }

    /** DJL offline, no tracking, its natives in the harness's cache: a user's DJL code then finds what the engine extracted. */
    @Override
    public void configureForUserCode(Path nativeCacheDir) {
        DjlPyTorchEngine.configureOffline(nativeCacheDir);
    }

    @Override
    public List<EngineSetting> settings() {
        return List.of(CPU_KERNELS);
    }

    /** {@code ATEN_CPU_CAPABILITY=avx2} where {@code -Dbench.torchCpuKernels} asks for it and the CPU has AVX-512 too. */
    @Override
    public Map<String, String> measuringEnvironment(Properties p, Map<String, String> inherited) {
        return CPU_KERNELS.choice(TorchCpuKernels.class, p).environment(inherited);
    }

    @Override
    public List<String> environmentVariables() {
        return List.of(TorchCpuKernels.VARIABLE);
    }
}
