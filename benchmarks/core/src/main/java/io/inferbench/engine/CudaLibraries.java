package io.inferbench.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Where the dynamic loader finds CUDA's shared libraries, for an engine's rows of {@code exec:java@gpucheck}: each
 * library it loads, found or not, with the fix.
 */
public final class CudaLibraries {
    private CudaLibraries() {
    }

    /** One row per library: where it was found, or that it was not, with how to install it. Informative: not required. */
    public static List<GpuReadiness> rows(List<String> libraries) {
        Set<Path> dirs = libraryDirs();
        return libraries.stream().map(library -> {
            Path found = dirs.stream().map(d -> d.resolve(library)).filter(Files::exists).findFirst().orElse(null);
            return new GpuReadiness(library, found != null, found == null ? "not found in " + dirs.size() + " library folders "
                    + "(LD_LIBRARY_PATH, ldconfig's cache, /usr/local/cuda*)" : found.toString(),
                    library.startsWith("libcudnn") ? "install cuDNN 9 for CUDA 12 and add its lib folder to LD_LIBRARY_PATH"
                            : "install the CUDA 12 toolkit (or its runtime libraries) and add its lib64 folder to LD_LIBRARY_PATH",
                    false);
        }).toList();
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
