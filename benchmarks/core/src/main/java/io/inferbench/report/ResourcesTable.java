package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.ResourcesResult;
import io.inferbench.results.RunResult;

import java.io.PrintStream;
import java.util.DoubleSummaryStatistics;
import java.util.Objects;

/**
 * The console's lines on resources: one for memory, CPU and energy over the sweep, and with a memory budget one per series
 * with the largest batch that fits. report.md has every cell.
 */
public final class ResourcesTable {
    private ResourcesTable() {
    }

    /**
     * Prints when there is a decision to show: a memory budget was given, or energy was measured. Otherwise the figures
     * are in run.json and report.md only, which keeps a default run's console short.
     */
    public static void print(ResourcesResult r, RunResult run, PrintStream out) {
        boolean energy = r.cells().stream().anyMatch(c -> c.joulesPerPass() != null);
        boolean gpu = r.gpuFits() != null || r.cells().stream().anyMatch(c -> c.gpu() != null);
        if (r.cells().isEmpty() || (r.memoryBudgetMb() == null && !energy && !gpu)) {
            return;
        }
        out.println("[inferbench] resources: " + summary(r, run));
        if (gpu) {
            out.println("[inferbench]   GPU: " + gpuSummary(r));
        }
        if (r.gpuFits() != null) {
            for (ResourcesResult.GpuMemoryFit f : r.gpuFits()) {
                out.println(Text.f("[inferbench]   %s/%s/%s %s GPU memory: %s", f.backend(), f.device(),
                        Text.shortModelName(f.model()), Text.seq(f.seqLen()), f.largestBatch() == null ? f.note()
                                : Text.f("largest batch within %.0f MiB: %d%s", f.budgetMb(), f.largestBatch(),
                                Boolean.TRUE.equals(f.extrapolated()) ? " (extrapolated)" : "")));
            }
        }
        if (r.memoryBudgetMb() != null) {
            for (ResourcesResult.MemoryFit f : r.fits()) {
                out.println(Text.f("[inferbench]   %s/%s/%s %s: %s", f.backend(), f.device(), Text.shortModelName(f.model()),
                        Text.seq(f.seqLen()), f.largestBatch() == null ? f.note() : Text.f("largest batch within %.0f MiB: %d%s",
                                r.memoryBudgetMb(), f.largestBatch(), Boolean.TRUE.equals(f.extrapolated()) ? " (extrapolated)" : "")));
            }
        }
    }

    /** GPU utilisation, power, energy and throttling over the run's CUDA cells, in one sentence; or why there are none. */
    static String gpuSummary(ResourcesResult r) {
        var gpus = r.cells().stream().map(ResourcesResult.CellResources::gpu).filter(Objects::nonNull).toList();
        var measured = gpus.stream().filter(g -> g.unavailable() == null).toList();
        if (measured.isEmpty()) {
            return "not sampled: " + (gpus.isEmpty() ? "no GPU figures in this run" : gpus.get(0).unavailable());
        }
        DoubleSummaryStatistics util = measured.stream().map(g -> g.figures().utilisationPercent())
                .filter(Objects::nonNull).mapToDouble(Double::doubleValue).summaryStatistics();
        DoubleSummaryStatistics watts = measured.stream().map(g -> g.figures().meanWatts())
                .filter(Objects::nonNull).mapToDouble(Double::doubleValue).summaryStatistics();
        DoubleSummaryStatistics joules = measured.stream().map(g -> g.figures().joulesPer1000Samples())
                .filter(Objects::nonNull).mapToDouble(Double::doubleValue).summaryStatistics();
        java.util.TreeSet<String> reasons = new java.util.TreeSet<>();
        measured.stream().map(g -> g.figures().throttleReasons()).filter(Objects::nonNull).forEach(reasons::addAll);
        reasons.remove("GPU idle");
        return (util.getCount() == 0 ? "utilisation not reported" : Text.f("utilisation %.0f-%.0f%% of the time a kernel ran",
                util.getMin(), util.getMax()))
                + (watts.getCount() == 0 ? "" : Text.f("; %.0f-%.0f W", watts.getMin(), watts.getMax()))
                + (joules.getCount() == 0 ? "" : Text.f("; %.2f-%.2f J per 1,000 samples", joules.getMin(), joules.getMax()))
                + (reasons.isEmpty() ? "; clocks not held down" : "; clocks held down by " + String.join(", ", reasons))
                + (measured.size() < gpus.size() ? Text.f("; %d cell(s) not sampled", gpus.size() - measured.size()) : "");
    }

    /** Peak memory, session creation, CPU use and energy over the run's cells, in one sentence. */
    static String summary(ResourcesResult r, RunResult run) {
        DoubleSummaryStatistics peak = r.cells().stream().map(ResourcesResult.CellResources::peakRssMb).filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue).summaryStatistics();
        DoubleSummaryStatistics cpu = r.cells().stream().map(ResourcesResult.CellResources::utilisationPercent)
                .filter(Objects::nonNull).mapToDouble(Double::doubleValue).summaryStatistics();
        DoubleSummaryStatistics session = run.forkJvms() == null ? new DoubleSummaryStatistics() : run.forkJvms().stream()
                .map(ForkJvm::sessionRssMb).filter(Objects::nonNull).mapToDouble(Double::doubleValue).summaryStatistics();
        DoubleSummaryStatistics energy = r.cells().stream().map(ResourcesResult.CellResources::joulesPerPass)
                .filter(Objects::nonNull).mapToDouble(Double::doubleValue).summaryStatistics();
        String joules = energy.getCount() == 0 ? "energy " + r.energyNote()
                : Text.f("energy %.4f-%.4f J per pass (%s)", energy.getMin(), energy.getMax(), r.energyNote());
        return (peak.getCount() == 0 ? "peak memory not recorded" : Text.f("peak resident set %.0f-%.0f MiB per cell", peak.getMin(),
                peak.getMax()))
                + (session.getCount() == 0 ? "" : Text.f(" (session creation added %.0f-%.0f MiB)", session.getMin(), session.getMax()))
                + (cpu.getCount() == 0 ? "" : Text.f("; CPU %.0f-%.0f%% of the engine's threads", cpu.getMin(), cpu.getMax()))
                + "; " + joules;
    }
}
