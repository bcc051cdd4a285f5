package io.inferbench;

import io.inferbench.cli.Setting;

import java.nio.file.Path;

/**
 * The folders tests share with the build, from the same defaults a sweep uses ({@link Setting}), resolved from the
 * repository root (tests run in {@code benchmarks/}): the generated models and DJL's natives are made once.
 */
public final class TestPaths {
    public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private TestPaths() {
    }

    public static Path modelCache() {
        return ROOT.resolve(Setting.CACHE.defaultValue());
    }

    public static Path nativeCache() {
        return ROOT.resolve(Setting.NATIVE_CACHE.defaultValue());
    }
}
