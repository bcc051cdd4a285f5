package io.inferbench.sweep;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * What a forked JVM needs beyond the cell's {@code @Param}s, passed by the sweep as system properties of its own
 * ({@code inferbench.fork.*}: internal plumbing, not user settings, so they never collide with {@code bench.*}).
 *
 * @param outputDir where the fork writes its {@link io.inferbench.measure.ForkMeasurement} (or an error file)
 */
public record ForkSettings(Path cacheDir, Path djlCacheDir, long seed, int intraOpThreads, int interOpThreads,
                           boolean allowCpuFallback, Path outputDir) {
    private static final String PREFIX = "inferbench.fork.";
    static final String OUTPUT_DIR = PREFIX + "output";

    public static ForkSettings of(SweepOptions options, Path outputDir) {
        return new ForkSettings(options.cacheDir(), options.djlCacheDir(), options.seed(), options.intraOpThreads(),
                options.interOpThreads(), options.allowCpuFallback(), outputDir);
    }

    public static ForkSettings fromProperties(Properties p) {
        String output = p.getProperty(OUTPUT_DIR);
        if (output == null || output.isBlank()) {
            throw new IllegalStateException("-D" + OUTPUT_DIR + " is not set: forks are started by the sweep, not by hand");
        }
        return new ForkSettings(Path.of(p.getProperty(PREFIX + "cache")), Path.of(p.getProperty(PREFIX + "djlCache")),
                Long.parseLong(p.getProperty(PREFIX + "seed")), Integer.parseInt(p.getProperty(PREFIX + "threads")),
                Integer.parseInt(p.getProperty(PREFIX + "interopThreads")),
                Boolean.parseBoolean(p.getProperty(PREFIX + "allowCpuFallback")), Path.of(output));
    }

    /** The JVM arguments that make a fork see these settings (appended after the host's own). */
    public List<String> asJvmArgs() {
        return List.of(
                "-D" + PREFIX + "cache=" + cacheDir,
                "-D" + PREFIX + "djlCache=" + djlCacheDir,
                "-D" + PREFIX + "seed=" + seed,
                "-D" + PREFIX + "threads=" + intraOpThreads,
                "-D" + PREFIX + "interopThreads=" + interOpThreads,
                "-D" + PREFIX + "allowCpuFallback=" + allowCpuFallback,
                "-D" + OUTPUT_DIR + "=" + outputDir);
    }
}
