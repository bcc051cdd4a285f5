package io.inferbench.engine.djl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which of PyTorch's vectorized CPU kernels the JVMs that measure run ({@code -Dbench.torchCpuKernels}), through
 * PyTorch's own {@code ATEN_CPU_CAPABILITY} variable, read once when libtorch loads.
 *
 * <p><b>Why it matters.</b> On some virtual machines a process now and then flips into a state in which PyTorch's few
 * AVX-512 kernels (softmax among them) run many times slower for the rest of its life, while its AVX2 code keeps its
 * speed (docs/findings.md, "PyTorch's AVX-512 kernels"): the machine's state, not the engine's.
 *
 * <ul>
 *   <li>{@link #AVX2}, the default: where the CPU is x86-64 with both AVX2 and AVX-512, the JVMs that measure run with
 *       {@code ATEN_CPU_CAPABILITY=avx2}, PyTorch's AVX2 build of every kernel. On a CPU without AVX-512 that is what
 *       PyTorch picks anyway, so nothing is added; on one without AVX2 it would be an instruction the CPU lacks, so
 *       nothing is added either. ONNX Runtime does not read it.</li>
 *   <li>{@link #ENGINE}: PyTorch's own choice, AVX-512 kernels included, to measure what a service on its defaults
 *       would see.</li>
 * </ul>
 * A value the user has set already is never overridden: then nothing is added. What the forks ran with is recorded in
 * {@code run.json} ({@code config.forkEngineEnvironment}).
 */
public enum TorchCpuKernels {
    AVX2,
    ENGINE;

    /** PyTorch's variable: {@code default}, {@code avx2} or {@code avx512} on x86-64. */
    public static final String VARIABLE = "ATEN_CPU_CAPABILITY";

    /** The variables to add to a measuring JVM's environment on this machine's CPU. */
    public Map<String, String> environment(Map<String, String> inherited) {
        return environment(inherited, System.getProperty("os.arch", ""), cpuFlags(Path.of("/proc/cpuinfo")));
    }

    /**
     * The variables to add, given the environment the JVM would otherwise inherit, the JVM's {@code os.arch} and the
     * CPU's feature flags: none with {@link #ENGINE}, when the user has set {@value #VARIABLE}, or when the CPU is not
     * x86-64 with both AVX2 and AVX-512 (there PyTorch has no AVX-512 kernels to avoid, or no AVX2 ones to run).
     */
    Map<String, String> environment(Map<String, String> inherited, String osArch, Set<String> cpuFlags) {
        Map<String, String> added = new LinkedHashMap<>();
        boolean x86 = osArch.equals("amd64") || osArch.equals("x86_64");
        if (this == ENGINE || inherited.containsKey(VARIABLE) || !x86 || !cpuFlags.contains("avx2")
                || !cpuFlags.contains("avx512f")) {
            return added;
        }
        added.put(VARIABLE, "avx2");
        return added;
    }

    /** The variable in effect in {@code environment}, for the record: empty when PyTorch chooses. */
    public static Map<String, String> inEffect(Map<String, String> environment) {
        return environment.containsKey(VARIABLE) ? Map.of(VARIABLE, environment.get(VARIABLE)) : Map.of();
    }

    /** The first {@code flags} line of {@code cpuinfo} as a set; empty where there is none (not Linux, not x86). */
    static Set<String> cpuFlags(Path cpuinfo) {
        try (var lines = Files.lines(cpuinfo)) {
            return lines.filter(l -> l.startsWith("flags")).findFirst()
                    .map(l -> Arrays.stream(l.substring(l.indexOf(':') + 1).trim().split("\\s+")).collect(Collectors.toSet()))
                    .orElse(Set.of());
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
    }
}
