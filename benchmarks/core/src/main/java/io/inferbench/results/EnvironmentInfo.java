package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.Map;

/**
 * The machine and software a run was measured on.
 *
 * @param engines   per backend, the engine build as the backend describes it (version, compiled-in providers)
 * @param libraries artifact versions read from the jars' Maven metadata, keyed by artifactId
 * @param gpus      {@code nvidia-smi}'s name, driver and memory for each GPU, or null when none was detected
 * @param gpuNote   why {@code gpus} is null, or how it was read
 * @param cpu       the CPU's vendor, family, model, stepping, ISA flags and clock; null in runs before schema 9
 */
@JsonPropertyOrder({"machine", "jvm", "engines", "libraries", "gpus", "gpuNote", "cpu"})
public record EnvironmentInfo(@JsonUnwrapped Machine machine, @JsonUnwrapped Jvm jvm, Map<String, String> engines,
                              Map<String, String> libraries, java.util.List<String> gpus, String gpuNote,
                              CpuIdentity cpu) {

    /** The operating system, the CPU as it names itself, its logical cores and the memory. */
    public record Machine(String os, String osVersion, String arch, String cpuModel, int logicalCores,
                          long memoryBytes) {
    }

    /** The JVM, and the JMH it ran. */
    public record Jvm(String jvmVendor, String jvmVersion, String jvmName, String jmhVersion) {
    }

    // Each group's fields, read through the group, as before the groups.

    public String os() {
        return machine.os();
    }

    public String osVersion() {
        return machine.osVersion();
    }

    public String arch() {
        return machine.arch();
    }

    public String cpuModel() {
        return machine.cpuModel();
    }

    public int logicalCores() {
        return machine.logicalCores();
    }

    public long memoryBytes() {
        return machine.memoryBytes();
    }

    public String jvmVendor() {
        return jvm.jvmVendor();
    }

    public String jvmVersion() {
        return jvm.jvmVersion();
    }

    public String jvmName() {
        return jvm.jvmName();
    }

    public String jmhVersion() {
        return jvm.jmhVersion();
    }
}
