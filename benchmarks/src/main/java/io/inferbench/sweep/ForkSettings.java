package io.inferbench.sweep;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * What a forked JVM needs beyond the cell's {@code @Param}s, passed as system properties by the host.
 *
 * @param outputDir where the fork writes its {@link io.inferbench.measure.ForkMeasurement} (or an error file)
 */
public record ForkSettings(Path cacheDir, long seed, int intraOpThreads, int interOpThreads, boolean allowCpuFallback,
                           Path outputDir) {
    static final String OUTPUT_DIR = "bench.forkOutput";

    public static ForkSettings fromProperties(Properties p) {
        String output = p.getProperty(OUTPUT_DIR);
        if (output == null || output.isBlank()) {
            throw new IllegalStateException("-D" + OUTPUT_DIR + " is not set: forks are started by the sweep, not by hand");
        }
        return new ForkSettings(Path.of(p.getProperty("bench.cache")), Long.parseLong(p.getProperty("bench.seed")),
                Integer.parseInt(p.getProperty("bench.threads")), Integer.parseInt(p.getProperty("bench.interopThreads", "1")),
                Boolean.parseBoolean(p.getProperty("bench.allowCpuFallback")),
                Path.of(output));
    }

    /** The JVM arguments that make a fork see these settings (appended after the host's own). */
    public List<String> asJvmArgs() {
        List<String> args = new ArrayList<>();
        args.add("-Dbench.cache=" + cacheDir);
        args.add("-Dbench.seed=" + seed);
        args.add("-Dbench.threads=" + intraOpThreads);
        args.add("-Dbench.interopThreads=" + interOpThreads);
        args.add("-Dbench.allowCpuFallback=" + allowCpuFallback);
        args.add("-D" + OUTPUT_DIR + "=" + outputDir);
        return args;
    }
}
