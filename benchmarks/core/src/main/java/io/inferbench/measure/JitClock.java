package io.inferbench.measure;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's total time spent compiling, in milliseconds, summed over its compiler threads
 * ({@link CompilationMXBean#getTotalCompilationTime()}); -1 where the JVM does not report it. Only differences mean
 * anything: the warm-up rule asks how much compiling happened during a window.
 */
@FunctionalInterface
public interface JitClock {
    long totalCompilationMs();

    /** This JVM's compiler, or a clock that always says -1 (unknown) when it has none or does not time it. */
    static JitClock jvm() {
        CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
        if (bean == null || !bean.isCompilationTimeMonitoringSupported()) {
            return () -> -1;
        }
        return bean::getTotalCompilationTime;
    }
}
