package io.inferbench.cli;

import io.inferbench.backend.DjlPyTorchBackend;
import io.inferbench.backend.OnnxRuntimeBackend;
import io.inferbench.environment.EnvironmentProbe;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code exec:java@gpucheck}: whether this machine can run a benchmark on CUDA, before a long run finds out. One row per
 * requirement (the GPU and its driver, each CUDA and cuDNN library ONNX Runtime's GPU build loads, each engine's CUDA
 * provider) with what was found and, for a failure, the fix. Exits 0 when at least one engine can run on the GPU, else 2.
 */
final class GpuCheckCommand {
    /** The libraries ONNX Runtime 1.23's CUDA provider loads (docs/models.md). */
    static final List<String> CUDA_LIBRARIES = List.of("libcudart.so.12", "libcublas.so.12", "libcublasLt.so.12",
            "libcurand.so.10", "libcufft.so.11", "libcudnn.so.9");

    private GpuCheckCommand() {
    }

    /** One row: what was checked, whether it passed, what was found, and the fix when it did not. */
    record Row(String check, boolean ok, String found, String fix) {
    }

    static ExitCode run(Properties p, PrintStream out) {
        Settings.checkKnown(p);
        List<Row> rows = new ArrayList<>();
        EnvironmentProbe.GpuQuery gpus = EnvironmentProbe.queryGpus();
        boolean gpu = gpus.gpus() != null && !gpus.gpus().isEmpty();
        rows.add(new Row("NVIDIA GPU and driver (nvidia-smi)", gpu, gpu ? String.join("; ", gpus.gpus()) : gpus.note(),
                "install the NVIDIA driver (it brings nvidia-smi), or run where a GPU is: nothing runs on CUDA without one"));
        Set<Path> dirs = libraryDirs();
        for (String library : CUDA_LIBRARIES) {
            Path found = dirs.stream().map(d -> d.resolve(library)).filter(Files::exists).findFirst().orElse(null);
            rows.add(new Row(library, found != null, found == null ? "not found in " + dirs.size() + " library folders "
                    + "(LD_LIBRARY_PATH, ldconfig's cache, /usr/local/cuda*)" : found.toString(),
                    library.startsWith("libcudnn") ? "install cuDNN 9 for CUDA 12 and add its lib folder to LD_LIBRARY_PATH"
                            : "install the CUDA 12 toolkit (or its runtime libraries) and add its lib64 folder to LD_LIBRARY_PATH"));
        }
        String ort = OnnxRuntimeBackend.cudaProviderProblem(0);
        rows.add(new Row("ONNX Runtime CUDA provider", ort == null, ort == null ? "loads on GPU 0 ("
                + new OnnxRuntimeBackend().buildInfo() + ")" : ort, ort == null ? "" : "see the rows above; the GPU build "
                + "comes with -Pgpu"));
        String djl = DjlPyTorchBackend.cudaUnavailable(Settings.path(p, Setting.DJL_CACHE, Settings.root(p)));
        rows.add(new Row("DJL PyTorch on CUDA", djl == null, djl == null ? "its natives see a GPU" : djl,
                djl == null ? "" : "optional: without it a cuda run measures ONNX Runtime only (docs/models.md)"));
        out.println("[inferbench] GPU readiness (exit 0: an engine can run on CUDA; 2: none can)");
        out.println(String.format("%-36s %-5s %s", "check", "state", "found / fix"));
        for (Row row : rows) {
            out.println(String.format("%-36s %-5s %s", row.check(), row.ok() ? "ok" : "FAIL", row.found()));
            if (!row.ok()) {
                out.println(String.format("%-36s %-5s fix: %s", "", "", row.fix()));
            }
        }
        boolean ready = gpu && (ort == null || djl == null);
        out.println(ready ? "[inferbench] ready: mvn verify -DskipTests -Pgpu -Dbench.device=cuda"
                : "[inferbench] not ready for CUDA: fix the FAIL rows above (a cuda run would stop in its preflight, exit 2)");
        return ready ? ExitCode.OK : ExitCode.BAD_INPUT;
    }

    /** Where the dynamic loader looks: LD_LIBRARY_PATH, ldconfig's cache, and CUDA's usual install folders. */
    static Set<Path> libraryDirs() {
        Set<Path> dirs = new LinkedHashSet<>();
        String path = System.getenv("LD_LIBRARY_PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isBlank()) {
                    dirs.add(Path.of(dir));
                }
            }
        }
        try {
            Process ldconfig = new ProcessBuilder("ldconfig", "-p").redirectErrorStream(true).start();
            String text = new String(ldconfig.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (ldconfig.waitFor(10, TimeUnit.SECONDS)) {
                text.lines().filter(l -> l.contains("=> /")).map(l -> Path.of(l.substring(l.indexOf("=> ") + 3).trim()).getParent())
                        .forEach(dirs::add);
            }
        } catch (IOException e) {
            // no ldconfig: the other folders still count
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (String dir : List.of("/usr/local/cuda/lib64", "/usr/local/cuda-12/lib64", "/usr/lib/x86_64-linux-gnu")) {
            dirs.add(Path.of(dir));
        }
        return dirs;
    }
}
