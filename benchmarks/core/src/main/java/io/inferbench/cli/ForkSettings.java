package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.Engines;
import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;
import io.inferbench.runner.Isolation;
import io.inferbench.runner.JitCompilation;
import io.inferbench.runner.JvmOption;
import io.inferbench.runner.MallocPolicy;
import io.inferbench.runner.SweepOptions;

import java.util.Properties;

/**
 * How the fork JVMs run: isolation, cells per JVM, JVM options, JIT, allocator and measuring environment, the call
 * timeout and the fork-departure rule ({@link Setting}), each checked before anything runs.
 */
final class ForkSettings {
    private ForkSettings() {
    }

    /**
     * How the fork JVMs run, with the environment they would inherit read once, now: what the sweep JVM that Maven
     * starts also needs, to run with the same allocator and kernels as the forks ({@link MavenLauncher}).
     */
    static SweepOptions.ForkJvms forkJvms(Properties p) {
        return new SweepOptions.ForkJvms(option(Isolation.class, Setting.ISOLATION, p), cellsPerJvm(p), Setting.JVM_ARGS.value(p),
                option(JitCompilation.class, Setting.JIT_COMPILATION, p), option(MallocPolicy.class, Setting.MALLOC, p),
                Engines.measuringEnvironment(p, System.getenv()), System.getenv());
    }

    private static <E extends Enum<E> & JvmOption> E option(Class<E> type, Option setting, Properties p) {
        return JvmOption.parse(type, setting.property(), setting.value(p), setting.meaning());
    }

    /** {@code bench.cellsPerJvm}: a positive count, or null for {@code all}. */
    static Integer cellsPerJvm(Properties p) {
        String value = Setting.CELLS_PER_JVM.value(p).trim();
        if (value.equalsIgnoreCase("all")) {
            return null;
        }
        try {
            int cells = Integer.parseInt(value);
            if (cells >= 1) {
                return cells;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new BenchmarkException("-D" + Setting.CELLS_PER_JVM.property() + " is the most cells one fork JVM runs, a "
                + "whole number of 1 or more (8: a fresh JVM every 8 cells of a round), or `all`; got " + value);
    }

    /** {@code bench.callTimeoutSeconds}: a positive number of seconds, or null for {@code auto}. */
    static Double callTimeoutSeconds(Properties p) {
        String value = Setting.CALL_TIMEOUT_SECONDS.value(p).trim();
        if (value.equalsIgnoreCase("auto")) {
            return null;
        }
        double seconds = PropertyValues.parseDouble(Setting.CALL_TIMEOUT_SECONDS, p);
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new BenchmarkException("-D" + Setting.CALL_TIMEOUT_SECONDS.property() + " is the longest one call may run, "
                    + "in seconds above 0 (300: a pass that has not returned after 5 minutes fails its cell), or `auto`; got "
                    + value);
        }
        return seconds;
    }

    /** {@code bench.forkDeparture}: a factor above 1, or null for {@code off}. */
    static Double forkDeparture(Properties p) {
        String value = Setting.FORK_DEPARTURE.value(p).trim();
        if (value.equalsIgnoreCase("off")) {
            return null;
        }
        double factor = PropertyValues.parseDouble(Setting.FORK_DEPARTURE, p);
        if (!(factor > 1) || Double.isInfinite(factor)) {
            throw new BenchmarkException("-D" + Setting.FORK_DEPARTURE.property() + " is a factor above 1 (1.5: a fork 1.5x "
                    + "slower or faster than its siblings' median is measured again) or `off`; got " + value);
        }
        return factor;
    }
}
