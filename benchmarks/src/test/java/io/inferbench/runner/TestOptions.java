package io.inferbench.runner;

import io.inferbench.TestPaths;

import java.nio.file.Path;
import java.util.Properties;

/**
 * Small sweep options for tests: the built-in tiny model from the build's cache, short runs, one thread, and a
 * temporary folder of its own.
 */
public final class TestOptions {
    private TestOptions() {
    }

    public static Properties minimal(Path results) {
        Properties p = new Properties();
        p.setProperty("bench.backend", "onnxruntime");
        p.setProperty("bench.model", "tiny");
        p.setProperty("bench.seq", "8,16");
        p.setProperty("bench.batch", "1,2");
        p.setProperty("bench.warmup", "2");
        p.setProperty("bench.iterations", "20");
        p.setProperty("bench.forks", "1");
        p.setProperty("bench.threads", "1");
        p.setProperty("bench.seed", "42");
        p.setProperty("bench.results", results.toString());
        p.setProperty("bench.cache", TestPaths.modelCache().toString());
        // A measuring lock of its own, beside the results: a benchmark elsewhere on the machine holds no test up.
        p.setProperty("java.io.tmpdir", results.resolveSibling(results.getFileName() + "-tmp").toString());
        return p;
    }
}
