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
        md.line("### The largest batch that fits").blank();
        md.line("Peak resident set against batch, least squares, per series; budget: " + (r.memoryBudgetMb() == null
                ? r.budgetSource() : Text.f("%.0f MiB (%s)", r.memoryBudgetMb(), r.budgetSource())) + ".").blank();
        for (ResourcesResult.MemoryFit f : r.fits()) {
            md.line("- " + f.backend() + " | " + f.device() + " | " + Text.shortModelName(f.model()) + " | seq " + f.seqLen() + ": "
                    + (f.largestBatch() == null ? "" : Text.f("**batch %d**%s; ", f.largestBatch(),
                    Boolean.TRUE.equals(f.extrapolated()) ? " (extrapolated)" : "")) + f.note() + ".");
        }
        md.blank();
    }

    private static String opt(Double value, String format) {
        return value == null ? "-" : Text.f(format, value);
    }
}
