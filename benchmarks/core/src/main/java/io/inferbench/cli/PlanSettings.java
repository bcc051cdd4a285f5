package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.Device;
import io.inferbench.engine.Engines;
import io.inferbench.inputs.InputOptions;
import io.inferbench.model.ModelSource;
import io.inferbench.option.PropertyValues;
import io.inferbench.precision.AgreementSetting;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * What the plan needs beyond its axes, checked before anything runs: the engines left out on CUDA by default, the
 * precision check's reference model, the input spec and axes, and {@code nvidia-smi}.
 */
final class PlanSettings {
    private PlanSettings() {
    }

    /**
     * On CUDA, the default engines are those that can run there: an engine whose GPU support is optional here leaves them
     * (removed from {@code backends}) when it cannot reach the GPU, and the returned line says why and how to enable it
     * ({@link io.inferbench.engine.EngineProvider#leftOutByDefault}). An engine that must run there stays: without its
     * GPU build or CUDA's libraries its preflight refuses the run, naming them. Engines the user names are never
     * removed: an explicit {@code -Dbench.backend=NAME -Dbench.device=cuda} is refused by the preflight with the same fix.
     */
    static List<String> defaultEnginesOffDevice(Properties p, List<String> backends, List<String> devices, Path root) {
        List<Device> parsed = devices.stream().map(Device::parse).toList();
        if (Setting.BACKEND.userValue(p).isPresent() || parsed.stream().noneMatch(Device::isCuda)) {
            return List.of();
        }
        List<String> leftOut = new ArrayList<>();
        for (String backend : List.copyOf(backends)) {
            String why = Engines.provider(backend).leftOutByDefault(parsed, Settings.path(p, Setting.NATIVE_CACHE, root));
            if (why != null) {
                backends.remove(backend);
                leftOut.add(backend + " on " + String.join(",", devices) + " (" + why + ")");
            }
        }
        return List.copyOf(leftOut);
    }

    /** {@code bench.seqAxis}, {@code bench.dims} and {@code bench.inputs}; the spec file must exist now. */
    static InputOptions inputOptions(Properties p, Path root) {
        String seqAxis = Setting.SEQ_AXIS.userValue(p).map(String::trim).filter(v -> !v.isEmpty()).orElse(null);
        Map<String, Long> dims = PropertyValues.namedSizes(Setting.DIMS, p);
        Path spec = null;
        if (Setting.INPUTS.userValue(p).filter(v -> !v.isBlank()).isPresent()) {
            spec = Settings.path(p, Setting.INPUTS, root);
            if (!java.nio.file.Files.isRegularFile(spec) || !java.nio.file.Files.isReadable(spec)) {
                throw new BenchmarkException("The input spec " + spec + " (-Dbench.inputs) is not a readable file; give "
                        + "the path to a JSON input spec (docs/models.md)");
            }
        }
        return new InputOptions(seqAxis, dims, spec);
    }

    /** {@code bench.nvidiaSmi}: a path the user gave must be an executable file; checked before anything runs. */
    static String nvidiaSmi(Properties p) {
        java.util.Optional<String> given = Setting.NVIDIA_SMI.userValue(p);
        given.ifPresent(io.inferbench.probe.GpuSampler::checkExecutable);
        return given.orElse(io.inferbench.probe.GpuSampler.DEFAULT_BINARY);
    }

    /**
     * {@code bench.reference}, checked before anything runs: it must be one of the run's models, there must be another
     * to compare with it, and every engine that runs one of the others must load the reference too (pairs are formed
     * per engine and device, on identical inputs).
     */
    static String reference(Properties p, List<String> backends, List<String> models) {
        Optional<String> value = AgreementSetting.REFERENCE.userValue(p);
        if (value.isEmpty()) {
            return null;
        }
        String reference = value.get();
        if (Setting.TARGET.userValue(p).isPresent()) {
            throw new BenchmarkException("-Dbench.reference compares models' outputs, and a target's results are its own "
                    + "objects, not outputs the harness can read: drop -Dbench.reference, or run it with the engines alone");
        }
        ModelSource referenceSource = ModelSource.parse(reference);
        String match = models.stream().filter(m -> m.equals(reference) || sameFile(m, referenceSource)).findFirst()
                .orElseThrow(() -> new BenchmarkException("-Dbench.reference=" + reference + " is not one of the run's models "
                        + models + ": the reference is measured in the same run as the models it is compared with. Add it to "
                        + "-Dbench.model, e.g. -Dbench.model=" + String.join(",", models) + "," + reference));
        if (models.size() < 2) {
            throw new BenchmarkException("-Dbench.reference=" + reference + " needs another model to compare with: add one to "
                    + "-Dbench.model, e.g. -Dbench.model=" + reference + "," + reference.replaceFirst("^(tiny|base)$", "$1-int8"));
        }
        for (String backend : backends) {
            String why = Engines.whyNot(backend, referenceSource);
            if (why == null) {
                continue;
            }
            List<String> others = models.stream().filter(m -> !m.equals(match) && Engines.canLoad(backend, ModelSource.parse(m)))
                    .toList();
            if (!others.isEmpty()) {
                throw new BenchmarkException("The reference " + reference + " cannot be loaded by " + backend + " (" + why
                        + "), which runs " + others + " that would be compared with it. Choose a reference every engine in "
                        + "-Dbench.backend loads, or drop " + backend + " from -Dbench.backend");
            }
        }
        return match;
    }

    private static boolean sameFile(String model, ModelSource reference) {
        return reference.file() != null && reference.file().equals(ModelSource.parse(model).file());
    }
}
