package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.ResourcesResult;
import io.inferbench.results.RunResult;

/** report.md's resources: every cell's memory, CPU and energy, and the largest batch that fits the memory budget. */
final class ResourcesReport {
    private ResourcesReport() {
    }

    static void section(Markdown md, RunResult run) {
        ResourcesResult r = run.resources();
        if (r == null || r.cells().isEmpty()) {
            return;
        }
        md.line("## Resources per cell").blank();
        md.line("Read before and after each cell's measured passes, never between them. Peak resident set: the process's "
                + "(JVM, engine, model, activations), the least of the cell's forks, each reset as the cell began, so earlier "
                + "cells' leftovers in the same JVM count as little as the order allows (`-Dbench.isolation=cell` gives each cell "
                + "a JVM of its own). CPU: the process's CPU time over the measured passes per engine thread (100% = every "
                + "engine thread busy; above it, the JVM's own threads or spinning waits); others: the share of the machine "
                + "other processes took meanwhile. " + ResourcesTable.summary(r, run) + ".").blank();
        md.header(new String[] {"backend", "device", "model", "seq", "batch", "peak RSS (MiB)", "RSS growth (MiB)",
            "heap used (MiB)", "CPU per engine thread", "others", "J per pass", "J per 1,000 samples", "mean W"},
                false, false, false, true, true, true, true, true, true, true, true, true, true);
        for (ResourcesResult.CellResources c : r.cells()) {
            md.row(c.backend(), c.device(), Text.shortModelName(c.model()), Integer.toString(c.seqLen()), Integer.toString(c.batch()),
                    opt(c.peakRssMb(), "%.0f"), opt(c.rssGrowthMb(), "%.1f"), opt(c.heapUsedMb(), "%.0f"),
                    opt(c.utilisationPercent(), "%.0f%%"), opt(c.otherProcessesPercent(), "%.0f%%"), opt(c.joulesPerPass(), "%.4f"),
                    opt(c.joulesPer1000Samples(), "%.2f"), opt(c.meanWatts(), "%.1f"));
        }
        md.blank();
        if (r.cells().stream().anyMatch(c -> c.gpu() != null)) {
            md.line("### GPU per cell").blank();
            md.line("Sampled by nvidia-smi every 100 ms during the measured passes, off the timed path. Utilisation is the "
                    + "share of time any kernel ran, not how much of the GPU it used; energy is the mean sampled board power times "
                    + "the measured time; memory: the process's own at the measurement's end, and the device's peak in use (every "
                    + "process's). " + ResourcesTable.gpuSummary(r) + ".").blank();
            md.header(new String[] {"backend", "device", "model", "seq", "batch", "samples", "utilisation", "process GPU MiB",
                "device GPU MiB (peak / total)", "mean W", "max W", "J per pass", "J per 1,000 samples", "min SM MHz", "clocks held by"},
                    false, false, false, true, true, true, true, true, true, true, true, true, true, true, false);
            for (ResourcesResult.CellResources c : r.cells()) {
                var g = c.gpu();
                if (g == null) {
                    continue;
                }
                if (g.unavailable() != null) {
                    md.row(c.backend(), c.device(), Text.shortModelName(c.model()), Integer.toString(c.seqLen()),
                            Integer.toString(c.batch()), "0", "not sampled: " + g.unavailable(), "-", "-", "-", "-", "-", "-", "-", "-");
                    continue;
                }
                ResourcesResult.GpuFigures f = g.figures();
                md.row(c.backend(), c.device(), Text.shortModelName(c.model()), Integer.toString(c.seqLen()), Integer.toString(c.batch()),
                        Integer.toString(g.samples()), opt(f.utilisationPercent(), "%.0f%%"), opt(f.processMemoryMb(), "%.0f"),
                        opt(f.deviceMemoryPeakMb(), "%.0f") + " / " + opt(f.deviceMemoryTotalMb(), "%.0f"), opt(f.meanWatts(), "%.0f"),
                        opt(f.maxWatts(), "%.0f"), opt(f.joulesPerPass(), "%.4f"), opt(f.joulesPer1000Samples(), "%.2f"),
                        opt(f.smClockMinMhz(), "%.0f"), f.throttleReasons() == null || f.throttleReasons().isEmpty() ? "-"
                                : String.join(", ", f.throttleReasons()));
            }
            md.blank();
        }
        md.line("### The largest batch that fits").blank();
        md.line("Peak resident set against batch, least squares, per series; budget: " + (r.memoryBudgetMb() == null
                ? r.budgetSource() : Text.f("%.0f MiB (%s)", r.memoryBudgetMb(), r.budgetSource())) + ".").blank();
        for (ResourcesResult.MemoryFit f : r.fits()) {
            md.line("- " + f.backend() + " | " + f.device() + " | " + Text.shortModelName(f.model()) + " | " + Text.seq(f.seqLen()) + ": "
                    + (f.largestBatch() == null ? "" : Text.f("**batch %d**%s; ", f.largestBatch(),
                    Boolean.TRUE.equals(f.extrapolated()) ? " (extrapolated)" : "")) + f.note() + ".");
        }
        md.blank();
        if (r.gpuFits() != null) {
            md.line("GPU memory against batch, per CUDA series, held to " + (r.memoryBudgetMb() == null ? "the GPU's memory"
                    : "the budget given") + ":").blank();
            for (ResourcesResult.GpuMemoryFit f : r.gpuFits()) {
                md.line("- " + f.backend() + " | " + f.device() + " | " + Text.shortModelName(f.model()) + " | " + Text.seq(f.seqLen())
                        + ": " + (f.largestBatch() == null ? "" : Text.f("**batch %d**%s; ", f.largestBatch(),
                        Boolean.TRUE.equals(f.extrapolated()) ? " (extrapolated)" : "")) + f.note() + Text.f(" (%s; budget %s%s).",
                        f.memory(), f.budgetMb() == null ? "none" : Text.f("%.0f MiB, ", f.budgetMb()), f.budgetSource()));
            }
            md.blank();
        }
    }

    private static String opt(Double value, String format) {
        return value == null ? "-" : Text.f(format, value);
    }
}
