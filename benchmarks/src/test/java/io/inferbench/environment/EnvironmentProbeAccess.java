package io.inferbench.environment;

import io.inferbench.results.CpuIdentity;

import java.nio.file.Path;

/** Lets tests in other packages read a CPU identity from given files. */
public final class EnvironmentProbeAccess {
    private EnvironmentProbeAccess() {
    }

    public static CpuIdentity cpuIdentity(Path cpuinfo, Path maxFreqKhz) {
        return EnvironmentProbe.cpuIdentity(cpuinfo, maxFreqKhz);
    }
}
