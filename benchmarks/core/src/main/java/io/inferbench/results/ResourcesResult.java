package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.inferbench.analysis.SeriesKey;

import java.util.List;

/**
 * {@code run.json}'s {@code resources} section (schema 10): what each cell cost besides time, gathered from its forks
 * ({@code forkRuns[].memory}, {@code forkRuns[].measurement.cpu} and {@code .energy}), and the largest batch predicted
 * to fit a memory budget.
 *
 * @param memoryBudgetMb the budget the fits are held to, MiB; null when none was given ({@code budgetSource} says so)
 * @param budgetSource   where the budget came from ({@code -Dbench.memoryBudgetMb}), or why there is none
 * @param cells          per measured cell
 * @param fits           per series (engine, device, model, sequence length): peak memory against batch
 * @param energyNote     where the energy figures come from, or why there are none
 * @param gpuFits        per CUDA series: the GPU memory against batch, held to the GPU's memory (or the budget given);
 *                       absent without CUDA cells
 */
public record ResourcesResult(Double memoryBudgetMb, String budgetSource, List<CellResources> cells, List<MemoryFit> fits,
                              String energyNote, List<GpuMemoryFit> gpuFits) {

    public ResourcesResult(Double memoryBudgetMb, String budgetSource, List<CellResources> cells, List<MemoryFit> fits,
                           String energyNote) {
        this(memoryBudgetMb, budgetSource, cells, fits, energyNote, null);
    }

    /**
     * One cell's resources over its forks.
     *
     * @param peakRssMb             the least of its forks' peak resident sets, MiB (the process's: JVM, engine,
     *                              model): each fork's peak also holds what earlier cells in its JVM left allocated,
     *                              and the order differs by fork, so the least is the closest to the cell's own
     * @param peakSince             {@code cell} when each fork's peak was reset as the cell began, else {@code jvm
     *                              start}
     * @param rssGrowthMb           the largest growth of the resident set over the cell in a fork, MiB
     * @param heapUsedMb            the largest Java heap in use at a fork's end, MiB
     * @param utilisationPercent    the forks' mean CPU use over the measured passes, per engine thread (100% = every
     *                              thread busy)
     * @param otherProcessesPercent the largest share of the machine other processes took during a fork's measurement
     * @param joulesPerPass         the forks' mean energy per measured pass; null where not available
     * @param joulesPer1000Samples  the same per 1,000 samples; null where not available
     * @param meanWatts             the forks' mean power over the measured passes; null where not available
     * @param gpu                   on CUDA, what the GPU did over its forks' measurements; null on the CPU
     */
    @JsonPropertyOrder({"series", "batch", "peakRssMb", "peakSince", "rssGrowthMb", "heapUsedMb", "utilisationPercent",
            "otherProcessesPercent", "joulesPerPass", "joulesPer1000Samples", "meanWatts", "gpu"})
    public record CellResources(@JsonUnwrapped SeriesKey series, int batch, Double peakRssMb, String peakSince,
                                Double rssGrowthMb, Double heapUsedMb, Double utilisationPercent,
                                Double otherProcessesPercent, Double joulesPerPass, Double joulesPer1000Samples,
                                Double meanWatts, GpuResources gpu) implements SeriesKey.Named {
        public CellResources(SeriesKey series, int batch, Double peakRssMb, String peakSince, Double rssGrowthMb,
                             Double heapUsedMb, Double utilisationPercent, Double otherProcessesPercent,
                             Double joulesPerPass, Double joulesPer1000Samples, Double meanWatts) {
            this(series, batch, peakRssMb, peakSince, rssGrowthMb, heapUsedMb, utilisationPercent,
                    otherProcessesPercent,
                    joulesPerPass, joulesPer1000Samples, meanWatts, null);
        }
    }

    /**
     * One CUDA cell's GPU over its forks, from nvidia-smi's samples during the measured passes
     * ({@code forkRuns[].measurement.gpu}).
     *
     * @param samples     the samples over every fork's measurement
     * @param figures     what they come to, written flat in run.json; {@link GpuFigures#NONE} without samples
     * @param unavailable why there are no figures (the first fork's reason), or null
     */
    public record GpuResources(int samples, @JsonUnwrapped GpuFigures figures, String unavailable) {
        /** The figures are never null (an absent group reads back as every field null). */
        public GpuResources {
            figures = figures == null ? GpuFigures.NONE : figures;
        }

        /** No figures: the forks' GPU could not be sampled, for {@code why}. */
        public static GpuResources unavailable(String why) {
            return new GpuResources(0, GpuFigures.NONE, why);
        }
    }

    /**
     * @param utilisationPercent     the forks' mean {@code utilization.gpu}: the share of time a kernel ran
     * @param processMemoryMb        the least of the forks' GPU memory of their own process at the measurement's end, MiB
     * @param deviceMemoryPeakMb     the least of the forks' peak memory in use on the device (every process), MiB
     * @param deviceMemoryTotalMb    the device's memory, MiB
     * @param meanWatts              the forks' mean board power
     * @param maxWatts               the largest sample
     * @param joulesPerPass          the forks' mean energy per pass (mean power times the measured time)
     * @param joulesPer1000Samples   the same per 1,000 samples
     * @param smClockMinMhz          the lowest SM clock sampled
     * @param throttleReasons        every reason the clocks were held down in any sample
     */
    public record GpuFigures(Double utilisationPercent, Double processMemoryMb, Double deviceMemoryPeakMb,
                             Double deviceMemoryTotalMb, Double meanWatts, Double maxWatts, Double joulesPerPass,
                             Double joulesPer1000Samples, Double smClockMinMhz, List<String> throttleReasons) {
        public static final GpuFigures NONE = new GpuFigures(null, null, null, null, null, null, null, null, null, null);
    }

    /**
     * GPU memory against batch for one CUDA series, least squares, and the largest batch predicted to fit.
     *
     * @param memory       which figure was fitted: the process's own GPU memory where the driver listed it, else the
     *                     device's memory in use (every process's, so an upper bound on the cell's)
     * @param peakMb       that figure per batch, MiB
     * @param budgetMb     what it is held to: {@code -Dbench.memoryBudgetMb} when given, else the device's memory
     * @param budgetSource which of the two
     */
    @JsonPropertyOrder({"series", "memory", "batches", "peakMb", "slopeMbPerSample", "interceptMb", "rSquared",
            "budgetMb", "budgetSource", "largestBatch", "extrapolated", "note"})
    public record GpuMemoryFit(@JsonUnwrapped SeriesKey series, String memory, List<Integer> batches,
                               List<Double> peakMb, Double slopeMbPerSample, Double interceptMb, Double rSquared,
                               Double budgetMb, String budgetSource, Integer largestBatch, Boolean extrapolated,
                               String note) implements SeriesKey.Named {
    }

    /**
     * Peak memory against batch, least squares, and the largest batch whose predicted peak is within the budget.
     *
     * @param slopeMbPerSample what one more sample adds to the peak, MiB
     * @param interceptMb      the peak at batch 0: the process, the engine and the model
     * @param largestBatch     the largest batch predicted to fit the budget; null without a budget or a usable fit
     * @param extrapolated     whether {@code largestBatch} lies beyond the largest batch swept (so it is a prediction, not
     *                         a measurement)
     * @param note             how it was decided, or why there is no answer
     */
    public record MemoryFit(String backend, String device, String model, int seqLen, List<Integer> batches,
                            List<Double> peakRssMb, Double slopeMbPerSample, Double interceptMb, Double rSquared,
                            Integer largestBatch, Boolean extrapolated, String note) {
    }
}
