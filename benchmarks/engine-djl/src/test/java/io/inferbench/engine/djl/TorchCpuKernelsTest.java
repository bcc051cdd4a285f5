package io.inferbench.engine.djl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the measuring JVMs get {@code ATEN_CPU_CAPABILITY=avx2}, and that a user's own value is never overridden. */
class TorchCpuKernelsTest {
    private static final Set<String> ZEN4 = Set.of("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512_vnni");
    private static final Set<String> AVX2_ONLY = Set.of("sse4_2", "avx", "avx2", "fma");

    @Test
    void avx2IsSetWhereTheCpuHasAvx512() {
        assertEquals(Map.of("ATEN_CPU_CAPABILITY", "avx2"),
                TorchCpuKernels.AVX2.environment(Map.of("PATH", "/usr/bin"), "amd64", ZEN4));
    }

    @Test
    void nothingIsAddedWherePyTorchWouldPickAvx2AnywayOrCouldNotRunIt() {
        assertTrue(TorchCpuKernels.AVX2.environment(Map.of(), "amd64", AVX2_ONLY).isEmpty(), "no AVX-512: PyTorch picks AVX2");
        assertTrue(TorchCpuKernels.AVX2.environment(Map.of(), "amd64", Set.of("sse4_2", "avx512f")).isEmpty(),
                "no AVX2: the variable would select instructions the CPU lacks");
        assertTrue(TorchCpuKernels.AVX2.environment(Map.of(), "aarch64", ZEN4).isEmpty(), "not x86-64");
        assertTrue(TorchCpuKernels.AVX2.environment(Map.of(), "amd64", Set.of()).isEmpty(), "no flags read");
    }

    @Test
    void engineLeavesPyTorchsChoice() {
        assertTrue(TorchCpuKernels.ENGINE.environment(Map.of(), "amd64", ZEN4).isEmpty());
    }

    @Test
    void aValueTheUserSetIsNeverOverriddenAndIsRecorded() {
        Map<String, String> user = Map.of("ATEN_CPU_CAPABILITY", "avx512", "PATH", "/usr/bin");
        assertTrue(TorchCpuKernels.AVX2.environment(user, "amd64", ZEN4).isEmpty());
        assertEquals(Map.of("ATEN_CPU_CAPABILITY", "avx512"), TorchCpuKernels.inEffect(user));
        assertTrue(TorchCpuKernels.inEffect(Map.of("PATH", "/usr/bin")).isEmpty(), "PyTorch chooses: nothing recorded");
    }

    @Test
    void theCpuFlagsComeFromCpuinfosFirstFlagsLine(@TempDir Path dir) throws IOException {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, "processor\t: 0\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu sse4_2 avx2 avx512f\n\n"
                + "processor\t: 1\nflags\t\t: fpu\n");
        assertEquals(Set.of("fpu", "sse4_2", "avx2", "avx512f"), TorchCpuKernels.cpuFlags(cpuinfo));
        assertEquals(Set.of(), TorchCpuKernels.cpuFlags(dir.resolve("absent")), "no file: no flags, so nothing is added");
    }
}
