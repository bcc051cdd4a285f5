package io.inferbench.probe;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;

/**
 * What the GPU did during one cell's measured passes in one fork, from the samples {@link GpuSampler} took meanwhile,
 * or why there is nothing: never an estimate in its place.
 *
 * <p>Its figures are grouped (utilisation, memory, power and energy, clocks) and written flat ({@link JsonUnwrapped}); an
 * accessor per field reads through the groups.
 *
 * @param samples     samples taken within the measurement
 * @param intervalMs  the sampling interval asked of nvidia-smi
 * @param source      the command that sampled
 * @param unavailable why there are no figures, or null
 */
@JsonPropertyOrder({"samples", "intervalMs", "utilisation", "memory", "power", "clocks", "source", "unavailable"})
public record GpuUse(int samples, double intervalMs, @JsonUnwrapped Utilisation utilisation, @JsonUnwrapped Memory memory,
                     @JsonUnwrapped Power power, @JsonUnwrapped Clocks clocks, String source, String unavailable) {

    /** A group is never null (an absent one reads back as every field null, so it is written as one). */
    public GpuUse {
        utilisation = utilisation == null ? Utilisation.NONE : utilisation;
        memory = memory == null ? Memory.NONE : memory;
        power = power == null ? Power.NONE : power;
        clocks = clocks == null ? Clocks.NONE : clocks;
    }

    /**
     * @param utilisationMeanPercent mean {@code utilization.gpu}: the share of time a kernel ran, not how much of the GPU
     *                               it used
     * @param utilisationMaxPercent  the largest sample
     */
    public record Utilisation(Double utilisationMeanPercent, Double utilisationMaxPercent) {
        static final Utilisation NONE = new Utilisation(null, null);
    }

    /**
     * @param memoryUsedMaxMb the device's peak memory in use over the samples, every process's, MiB
     * @param memoryTotalMb   the device's memory, MiB
     * @param processMemoryMb this process's GPU memory at the measurement's end ({@code --query-compute-apps}); null where
     *                        the driver did not list it
     */
    public record Memory(Double memoryUsedMaxMb, Double memoryTotalMb, Double processMemoryMb) {
        static final Memory NONE = new Memory(null, null, null);
    }

    /**
     * @param meanWatts            mean board power over the samples
     * @param maxWatts             the largest sample
     * @param joules               {@code meanWatts} times the measurement's wall time
     * @param joulesPerPass        per measured pass
     * @param joulesPer1000Samples per 1,000 samples (passes times batch / 1,000)
     */
    public record Power(Double meanWatts, Double maxWatts, Double joules, Double joulesPerPass,
                       Double joulesPer1000Samples) {
        static final Power NONE = new Power(null, null, null, null, null);
    }

    /**
     * @param smClockMeanMhz  mean SM clock
     * @param smClockMinMhz   the lowest SM clock sampled
     * @param throttleReasons every reason the clocks were held below their maximum in any sample (NVML's names)
     */
    public record Clocks(Double smClockMeanMhz, Double smClockMinMhz, List<String> throttleReasons) {
        static final Clocks NONE = new Clocks(null, null, null);
    }

    public static GpuUse unavailable(String source, double intervalMs, String why) {
        return new GpuUse(0, intervalMs, Utilisation.NONE, Memory.NONE, Power.NONE, Clocks.NONE, source, why);
    }

    public GpuUse withProcessMemoryMb(Double mb) {
        return new GpuUse(samples, intervalMs, utilisation, new Memory(memoryUsedMaxMb(), memoryTotalMb(), mb), power,
                clocks, source, unavailable);
    }

    // Each group's fields, read through the group, as before the groups.

    public Double utilisationMeanPercent() {
        return utilisation.utilisationMeanPercent();
    }

    public Double utilisationMaxPercent() {
        return utilisation.utilisationMaxPercent();
    }

    public Double memoryUsedMaxMb() {
        return memory.memoryUsedMaxMb();
    }

    public Double memoryTotalMb() {
        return memory.memoryTotalMb();
    }

    public Double processMemoryMb() {
        return memory.processMemoryMb();
    }

    public Double meanWatts() {
        return power.meanWatts();
    }

    public Double maxWatts() {
        return power.maxWatts();
    }

    public Double joules() {
        return power.joules();
    }

    public Double joulesPerPass() {
        return power.joulesPerPass();
    }

    public Double joulesPer1000Samples() {
        return power.joulesPer1000Samples();
    }

    public Double smClockMeanMhz() {
        return clocks.smClockMeanMhz();
    }

    public Double smClockMinMhz() {
        return clocks.smClockMinMhz();
    }

    public List<String> throttleReasons() {
        return clocks.throttleReasons();
    }
}
