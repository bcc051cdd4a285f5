package io.inferbench.results;

import java.util.Map;

/**
 * The machine and software a run was measured on.
 *
 * @param engines     per backend, the engine build as the backend describes it (version, compiled-in providers)
 * @param libraries   artifact versions read from the jars' Maven metadata, keyed by artifactId
 * @param gpus        {@code nvidia-smi}'s name, driver and memory for each GPU, or null when none was detected
 * @param gpuNote     why {@code gpus} is null, or how it was read
 * @param cpu         the CPU's vendor, family, model, stepping, ISA flags and clock; null in runs before schema 9
 */
public record EnvironmentInfo(
        String os,
        String osVersion,
        String arch,
        String cpuModel,
        int logicalCores,
        long memoryBytes,
        String jvmVendor,
        String jvmVersion,
        String jvmName,
        String jmhVersion,
        Map<String, String> engines,
        Map<String, String> libraries,
        java.util.List<String> gpus,
        String gpuNote,
        CpuIdentity cpu) {
}
