package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.Settings;
import io.inferbench.engine.djl.TorchCpuKernels;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options of the JVMs that measure: one way to name, parse and refuse them, one way to add to their environment. */
class JvmOptionTest {
    @Test
    void everyChoiceIsCalledByItsLowerCaseNameAndParsesBack() {
        assertEquals(Isolation.MODEL, JvmOption.parse(Isolation.class, "bench.isolation", "model", ""));
        assertEquals(Isolation.CELL, JvmOption.parse(Isolation.class, "bench.isolation", " cell ", ""));
        assertEquals(JitCompilation.BACKGROUND, JvmOption.parse(JitCompilation.class, "bench.jitCompilation", "background", ""));
        assertEquals(MallocPolicy.SYSTEM, JvmOption.parse(MallocPolicy.class, "bench.malloc", "system", ""));
        assertEquals(TorchCpuKernels.AVX2, io.inferbench.engine.EngineSetting.choice(TorchCpuKernels.class, "bench.torchCpuKernels", "avx2", ""));
        assertEquals("foreground", JitCompilation.FOREGROUND.label());
    }

    @Test
    void anUnknownChoiceNamesThePropertyEveryChoiceAndWhatTheyMean() {
        Properties p = TestOptions.minimal(Path.of("results"));
        p.setProperty("bench.torchCpuKernels", "avx512");
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> Settings.sweep(p));
        assertTrue(e.getMessage().startsWith("Unknown -Dbench.torchCpuKernels=avx512: expected one of [avx2, engine] (PyTorch's"),
                e.getMessage());
        assertTrue(e.getMessage().contains("`engine` is PyTorch's own choice") && e.getMessage().contains("ATEN_CPU_CAPABILITY"),
                "what each choice means, from the property's documentation: " + e.getMessage());
        p.setProperty("bench.torchCpuKernels", "avx2");
        p.setProperty("bench.jitCompilation", "batch");
        e = assertThrows(BenchmarkException.class, () -> Settings.sweep(p));
        assertTrue(e.getMessage().contains("[foreground, background]") && e.getMessage().contains("-Dbench.jitCompilation=batch"),
                e.getMessage());
    }

    @Test
    void theMeasuringEnvironmentIsEveryOptionsAdditionToTheEnvironmentReadOnce() {
        Map<String, String> inherited = Map.of("PATH", "/usr/bin", "LD_PRELOAD", "libjemalloc.so.2");
        SweepOptions.ForkJvms jvms = new SweepOptions.ForkJvms(Isolation.MODEL, null, "", JitCompilation.FOREGROUND,
                MallocPolicy.REUSE, Map.of(), inherited);
        assertEquals(Map.of(), jvms.measuringEnvironment(), "the user's allocator is never overridden; no engine variable asked for");
        assertEquals(Map.of("LD_PRELOAD", "libjemalloc.so.2"), jvms.allocatorInEffect(), "and the user's choice is recorded");
        SweepOptions.ForkJvms reuse = new SweepOptions.ForkJvms(Isolation.MODEL, null, "", JitCompilation.FOREGROUND,
                MallocPolicy.REUSE, Map.of(), Map.of("PATH", "/usr/bin"));
        assertEquals("1", reuse.measuringEnvironment().get("MALLOC_ARENA_MAX"));
        assertEquals("/usr/bin", reuse.forkEnvironment().get("PATH"), "a fork inherits the rest");
    }
}
