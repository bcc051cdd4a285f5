package io.inferbench;

import io.inferbench.cli.Setting;

import java.nio.file.Path;

/**
 * The folders tests share with the build, from the same defaults a sweep uses ({@link Setting}), resolved from the
 * repository root: the generated models and DJL's natives are made once. Tests run in their module's folder
 * ({@code benchmarks/}, {@code benchmarks/engine-onnxruntime/}, ...), so the root is the nearest folder above that holds
 * {@code benchmarks/core}. A test dependency of every module whose tests need it (inferbench-test-support).
 */
public final class TestPaths {
    public static final Path ROOT = root(Path.of("").toAbsolutePath());

    private TestPaths() {
    }

    private static Path root(Path from) {
        for (Path dir = from; dir != null; dir = dir.getParent()) {
            if (java.nio.file.Files.isDirectory(dir.resolve("benchmarks/core"))) {
                return dir.normalize();
            }
        }
        throw new IllegalStateException("no folder above " + from + " holds benchmarks/core: run the tests from the repository");
    }

    public static Path modelCache() {
        return ROOT.resolve(Setting.CACHE.defaultValue());
    }

    public static Path nativeCache() {
        return ROOT.resolve(Setting.NATIVE_CACHE.defaultValue());
    }
}
