package io.inferbench.cli;

import io.inferbench.TestPaths;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import io.inferbench.sweep.ForwardKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU recipe on this machine, whose DJL natives are CPU-only and which has no GPU: the default engines on cuda leave
 * DJL out with the fix, a named DJL stays (for the preflight to refuse), and the readiness check fails with its table.
 */
class GpuRecipeTest {
    @TempDir
    Path dir;

    private Properties properties(String... keyValues) {
        Properties p = TestOptions.minimal(dir);
        p.remove("bench.backend");
        p.setProperty("bench.nativeCache", TestPaths.nativeCache().toString());
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void onCudaTheDefaultEnginesLeaveOutDjlWithoutACudaLibtorch() {
        SweepOptions cuda = Settings.sweep(properties("bench.device", "cuda"));
        assertEquals(List.of("onnxruntime"), cuda.plan().backends());
        assertEquals(1, cuda.plan().leftOut().size());
        String why = cuda.plan().leftOut().get(0);
        assertTrue(why.startsWith("djl on cuda:0 (its PyTorch natives") && why.contains("PYTORCH_LIBRARY_PATH"), why);
        assertTrue(io.inferbench.runner.Cell.skipped(cuda, new ForwardKind()).contains(why), "recorded with the skipped pairs");
    }

    @Test
    void onTheCpuOrWithNamedEnginesNothingIsLeftOut() {
        assertEquals(List.of("onnxruntime", "djl"), Settings.sweep(properties()).plan().backends());
        SweepOptions named = Settings.sweep(properties("bench.device", "cuda", "bench.backend", "djl"));
        assertEquals(List.of("djl"), named.plan().backends());
        assertEquals(List.of(), named.plan().leftOut());
    }

    @Test
    void theReadinessCheckListsEveryRequirementAndExits2WithoutAGpu() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ExitCode exit = GpuCheckCommand.run(properties(), out);
        String printed = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCode.BAD_INPUT, exit, printed);
        for (String library : List.of("libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12", "libcurand.so.10", "libcufft.so.11", "libcudnn.so.9")) {
            assertTrue(printed.contains(library), library + " in\n" + printed);
        }
        assertTrue(printed.contains("ONNX Runtime CUDA provider") && printed.contains("-Pgpu"), printed);
        assertTrue(printed.contains("DJL PyTorch on CUDA") && printed.contains("not ready for CUDA"), printed);
    }
}
