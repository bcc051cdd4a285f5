package io.inferbench.probe;

import java.util.List;

/**
 * What the GPU did during one cell's measured passes in one fork, from the samples {@link GpuSampler} took meanwhile,
 * or why there is nothing: never an estimate in its place.
 *
 * @param samples                 samples taken within the measurement
 * @param intervalMs              the sampling interval asked of nvidia-smi
 * @param utilisationMeanPercent  mean {@code utilization.gpu}: the share of time a kernel ran, not how much of the GPU it
 *                                used
 * @param utilisationMaxPercent   the largest sample
 * @param memoryUsedMaxMb         the device's peak memory in use over the samples, every process's, MiB
 * @param memoryTotalMb           the device's memory, MiB
 * @param processMemoryMb         this process's GPU memory at the measurement's end ({@code --query-compute-apps}); null
 *                                where the driver did not list it
 * @param meanWatts               mean board power over the samples
 * @param maxWatts                the largest sample
 * @param joules                  {@code meanWatts} times the measurement's wall time
 * @param joulesPerPass           per measured pass
 * @param joulesPer1000Samples    per 1,000 samples (passes times batch / 1,000)
 * @param smClockMeanMhz          mean SM clock
 * @param smClockMinMhz           the lowest SM clock sampled
 * @param throttleReasons         every reason the clocks were held below their maximum in any sample (NVML's names)
 * @param source                  the command that sampled
 * @param unavailable             why there are no figures, or null
 */
public record GpuUse(int samples, double intervalMs, Double utilisationMeanPercent, Double utilisationMaxPercent,
                     Double memoryUsedMaxMb, Double memoryTotalMb, Double processMemoryMb, Double meanWatts, Double maxWatts,
                     Double joules, Double joulesPerPass, Double joulesPer1000Samples, Double smClockMeanMhz,
                     Double smClockMinMhz, List<String> throttleReasons, String source, String unavailable) {

    public static GpuUse unavailable(String source, double intervalMs, String why) {
        return new GpuUse(0, intervalMs, null, null, null, null, null, null, null, null, null, null, null, null, null, source,
                why);
    }

    public GpuUse withProcessMemoryMb(Double mb) {
        return new GpuUse(samples, intervalMs, utilisationMeanPercent, utilisationMaxPercent, memoryUsedMaxMb, memoryTotalMb, mb,
                meanWatts, maxWatts, joules, joulesPerPass, joulesPer1000Samples, smClockMeanMhz, smClockMinMhz,
                throttleReasons, source, unavailable);
    }
}
