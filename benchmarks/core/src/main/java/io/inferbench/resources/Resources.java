package io.inferbench.resources;

import io.inferbench.Text;
import io.inferbench.probe.CpuUse;
import io.inferbench.probe.EnergyUse;
import io.inferbench.probe.GpuUse;
import io.inferbench.probe.MemoryUse;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.ResourcesResult;
import io.inferbench.results.RunResult;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * What each cell cost besides time, from what its forks recorded, and the largest batch that fits a memory budget.
 *
 * <p><b>Which fork's peak.</b> A fork JVM runs many cells, and what an earlier cell allocated (the engine's arenas, the
 * input buffers it keeps per shape) stays in the resident set, so a fork's peak for a cell is the cell's own need plus
 * what came before it. The cells run in a different seeded order in every fork round, so the least of the forks' peaks
 * is the closest to the cell's own, and still an upper bound on it. With {@code -Dbench.isolation=cell} each cell has
 * its JVM to itself and the figures are the cell's alone.
 *
 * <p><b>The fit.</b> Peak memory against batch, least squares (Commons Math), per series; the largest batch whose
 * predicted peak is within the budget, marked extrapolated beyond the largest batch swept. Without a budget there is no
 * answer, and the note says how to give one.
 *
 * <p><b>On CUDA</b> each cell also carries what nvidia-smi sampled during its measured passes (utilisation, power, energy,
 * clocks, memory), and each series gets a second fit: GPU memory against batch, held to the GPU's own memory unless
 * {@code -Dbench.memoryBudgetMb} gives another. The process's own GPU memory is fitted where the driver listed it;
 * otherwise the device's memory in use, which counts every process on it, so the answer errs small.
 */
public final class Resources {
    /** Batches predicted beyond this are reported as this: a linear fit says nothing that far out. */
    static final int MAX_REPORTED_BATCH = 1 << 20;

    private Resources() {
    }

    public static ResourcesResult of(RunResult run, Double budgetMb, String budgetSource) {
        List<ResourcesResult.CellResources> cells = new ArrayList<>();
        String energyNote = null;
        for (CellResult cell : run.cells()) {
            if (!cell.measured() || cell.forkRuns() == null) {
                continue;
            }
            List<CellFork> forks = cell.forkRuns();
            List<MemoryUse> memory = forks.stream().map(CellFork::memory).filter(Objects::nonNull).toList();
            List<CpuUse> cpu = forks.stream().map(f -> f.measurement() == null ? null : f.measurement().cpu()).filter(Objects::nonNull).toList();
            List<EnergyUse> energy = forks.stream().map(f -> f.measurement() == null ? null : f.measurement().energy())
                    .filter(Objects::nonNull).toList();
            if (energyNote == null && !energy.isEmpty()) {
                EnergyUse e = energy.get(0);
                energyNote = e.unavailable() == null ? e.source() : "not available: " + e.unavailable();
            }
            cells.add(new ResourcesResult.CellResources(cell.series(), cell.batch(),
                    min(memory, MemoryUse::peakRssMb),
                    memory.isEmpty() ? null : memory.stream().allMatch(m -> MemoryUse.SINCE_CELL.equals(m.peakSince()))
                            ? MemoryUse.SINCE_CELL : MemoryUse.SINCE_JVM_START,
                    max(memory, MemoryUse::rssGrowthMb), max(memory, MemoryUse::heapUsedMb),
                    mean(cpu.stream().map(CpuUse::utilisationPercent).toList()),
                    max(cpu.stream().map(CpuUse::otherProcessesPercent).filter(Objects::nonNull).toList(), Double::doubleValue),
                    mean(energy.stream().map(EnergyUse::joulesPerPass).toList()),
                    mean(energy.stream().map(EnergyUse::joulesPer1000Samples).toList()),
                    mean(energy.stream().map(EnergyUse::meanWatts).toList()),
                    gpu(forks.stream().map(f -> f.measurement() == null ? null : f.measurement().gpu()).filter(Objects::nonNull).toList())));
        }
        List<ResourcesResult.GpuMemoryFit> gpuFits = gpuFits(cells, budgetMb);
        return new ResourcesResult(budgetMb, budgetSource, cells, fits(cells, budgetMb),
                energyNote == null ? "not recorded (a run before schema 10)" : energyNote, gpuFits.isEmpty() ? null : gpuFits);
    }

    /** A cell's GPU over its forks; null without GPU samples (the CPU, or a run before them). */
    public static ResourcesResult.GpuResources gpu(List<GpuUse> forks) {
        if (forks.isEmpty()) {
            return null;
        }
        List<GpuUse> measured = forks.stream().filter(g -> g.unavailable() == null).toList();
        if (measured.isEmpty()) {
            return ResourcesResult.GpuResources.unavailable(forks.get(0).unavailable());
        }
        TreeSet<String> reasons = new TreeSet<>();
        measured.stream().map(GpuUse::throttleReasons).filter(Objects::nonNull).forEach(reasons::addAll);
        int samples = measured.stream().mapToInt(GpuUse::samples).sum();
        return new ResourcesResult.GpuResources(samples, new ResourcesResult.GpuFigures(
                mean(measured.stream().map(GpuUse::utilisationMeanPercent).toList()),
                min(present(measured, GpuUse::processMemoryMb), Double::doubleValue),
                min(present(measured, GpuUse::memoryUsedMaxMb), Double::doubleValue),
                max(present(measured, GpuUse::memoryTotalMb), Double::doubleValue),
                mean(measured.stream().map(GpuUse::meanWatts).toList()),
                max(present(measured, GpuUse::maxWatts), Double::doubleValue),
                mean(measured.stream().map(GpuUse::joulesPerPass).toList()),
                mean(measured.stream().map(GpuUse::joulesPer1000Samples).toList()),
                min(present(measured, GpuUse::smClockMinMhz), Double::doubleValue),
                reasons.isEmpty() ? null : List.copyOf(reasons)), null);
    }

    private static List<Double> present(List<GpuUse> uses, java.util.function.Function<GpuUse, Double> f) {
        return uses.stream().map(f).filter(Objects::nonNull).toList();
    }

    /** Per CUDA series with GPU figures: GPU memory against batch, held to the budget given or the GPU's memory. */
    public static List<ResourcesResult.GpuMemoryFit> gpuFits(List<ResourcesResult.CellResources> cells, Double budgetMb) {
        Map<String, List<ResourcesResult.CellResources>> series = new LinkedHashMap<>();
        cells.stream().filter(c -> c.gpu() != null && c.gpu().figures().deviceMemoryPeakMb() != null)
                .forEach(c -> series.computeIfAbsent(c.backend() + "|" + c.device() + "|" + c.model() + "|" + c.seqLen(),
                        k -> new ArrayList<>()).add(c));
        List<ResourcesResult.GpuMemoryFit> fits = new ArrayList<>();
        for (List<ResourcesResult.CellResources> s : series.values()) {
            List<ResourcesResult.CellResources> sorted = s.stream().sorted(Comparator.comparingInt(ResourcesResult.CellResources::batch)).toList();
            ResourcesResult.CellResources any = sorted.get(0);
            boolean own = sorted.stream().allMatch(c -> c.gpu().figures().processMemoryMb() != null);
            List<Integer> batches = sorted.stream().map(ResourcesResult.CellResources::batch).toList();
            List<Double> peaks = sorted.stream().map(c -> c.gpu().figures())
                    .map(f -> own ? f.processMemoryMb() : f.deviceMemoryPeakMb()).toList();
            Double total = sorted.stream().map(c -> c.gpu().figures().deviceMemoryTotalMb()).filter(Objects::nonNull).findFirst()
                    .orElse(null);
            Double budget = budgetMb != null ? budgetMb : total;
            String source = budgetMb != null ? "-Dbench.memoryBudgetMb" : total != null ? "the GPU's memory (nvidia-smi memory.total)"
                    : "none: nvidia-smi gave no memory.total, and no -Dbench.memoryBudgetMb was given";
            Line line = line(batches, peaks, budget, own ? "the process's GPU memory" : "the device's GPU memory in use");
            fits.add(new ResourcesResult.GpuMemoryFit(any.series(),
                    own ? "process GPU memory (nvidia-smi --query-compute-apps), at each measurement's end"
                            : "device GPU memory in use, peak over the samples (every process on the GPU: an upper bound)",
                    batches, peaks, line.slope(), line.intercept(), line.rSquared(), budget, source, line.largest(),
                    line.extrapolated(), line.note()));
        }
        return fits;
    }

    static List<ResourcesResult.MemoryFit> fits(List<ResourcesResult.CellResources> cells, Double budgetMb) {
        Map<String, List<ResourcesResult.CellResources>> series = new LinkedHashMap<>();
        cells.stream().filter(c -> c.peakRssMb() != null).forEach(c -> series.computeIfAbsent(
                c.backend() + "|" + c.device() + "|" + c.model() + "|" + c.seqLen(), k -> new ArrayList<>()).add(c));
        List<ResourcesResult.MemoryFit> fits = new ArrayList<>();
        for (List<ResourcesResult.CellResources> s : series.values()) {
            List<ResourcesResult.CellResources> sorted = s.stream().sorted(Comparator.comparingInt(ResourcesResult.CellResources::batch)).toList();
            fits.add(fit(sorted, budgetMb));
        }
        return fits;
    }

    /** One series' fit and its answer. */
    static ResourcesResult.MemoryFit fit(List<ResourcesResult.CellResources> sorted, Double budgetMb) {
        ResourcesResult.CellResources any = sorted.get(0);
        List<Integer> batches = sorted.stream().map(ResourcesResult.CellResources::batch).toList();
        List<Double> peaks = sorted.stream().map(ResourcesResult.CellResources::peakRssMb).toList();
        Line line = line(batches, peaks, budgetMb, null);
        return new ResourcesResult.MemoryFit(any.backend(), any.device(), any.model(), any.seqLen(), batches, peaks, line.slope(),
                line.intercept(), line.rSquared(), line.largest(), line.extrapolated(), line.note());
    }

    /**
     * A least-squares line of peak memory against batch ({@code fitted}; null with one batch size), and the largest batch
     * within the budget, or null where the note says why there is none.
     */
    record Line(Fitted fitted, Integer largest, Boolean extrapolated, String note) {

        /** The line itself: MiB at batch 0, MiB per sample, and its R² (null where undefined). */
        record Fitted(double slope, double intercept, Double rSquared) {
        }

        Double slope() {
            return fitted == null ? null : fitted.slope();
        }

        Double intercept() {
            return fitted == null ? null : fitted.intercept();
        }

        Double rSquared() {
            return fitted == null ? null : fitted.rSquared();
        }
    }

    /**
     * @param what what was fitted, for a note that is not about the host's resident set; null for the host's
     */
    static Line line(List<Integer> batches, List<Double> peaks, Double budgetMb, String what) {
        if (batches.size() < 2) {
            return new Line(null, null, null, "one batch size: no fit of memory against batch");
        }
        SimpleRegression regression = new SimpleRegression();
        for (int i = 0; i < batches.size(); i++) {
            regression.addData(batches.get(i), peaks.get(i));
        }
        double slope = regression.getSlope();
        double intercept = regression.getIntercept();
        double r2 = regression.getRSquare();
        Integer largest = null;
        Boolean extrapolated = null;
        String note;
        int swept = batches.get(batches.size() - 1);
        if (budgetMb == null) {
            note = "no memory budget: give -Dbench.memoryBudgetMb=MiB for the largest batch that fits";
        } else if (slope <= 1e-9) {
            note = Text.f("the peak does not grow with batch over batches %d to %d (slope %.2f MiB per sample): this fit sets no "
                    + "limit within the budget of %.0f MiB", batches.get(0), swept, slope, budgetMb);
        } else {
            double fits = Math.floor((budgetMb - intercept) / slope + 1e-9); // a budget met exactly fits
            largest = (int) Math.max(0, Math.min(MAX_REPORTED_BATCH, fits));
            extrapolated = largest > swept;
            note = largest == 0
                    ? Text.f("even batch 1 is predicted above the budget of %.0f MiB (%.0f MiB at batch 0, %.2f MiB per sample)",
                        budgetMb, intercept, slope)
                    : Text.f("%.0f MiB at batch 0 plus %.2f MiB per sample (R² %.3f) fits the budget of %.0f MiB up to batch %d%s",
                        intercept, slope, r2, budgetMb, largest, extrapolated ? Text.f(", extrapolated beyond the largest batch "
                        + "swept (%d): measure it before relying on it", swept) : "");
        }
        return new Line(new Line.Fitted(slope, intercept, Double.isNaN(r2) ? null : r2), largest, extrapolated,
                what == null ? note : what + ": " + note);
    }

    private static <T> Double min(List<T> values, ToDoubleFunction<T> f) {
        OptionalDouble m = values.stream().mapToDouble(f).min();
        return m.isPresent() ? m.getAsDouble() : null;
    }

    private static <T> Double max(List<T> values, ToDoubleFunction<T> f) {
        OptionalDouble m = values.stream().mapToDouble(f).max();
        return m.isPresent() ? m.getAsDouble() : null;
    }

    private static Double mean(List<Double> values) {
        OptionalDouble m = values.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue).average();
        return m.isPresent() ? m.getAsDouble() : null;
    }
}
