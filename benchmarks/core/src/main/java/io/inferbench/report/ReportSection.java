package io.inferbench.report;

import io.inferbench.analysis.Analysis;
import io.inferbench.results.RunResult;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/**
 * One section of {@code report.md}: whether a run has it, the plots it draws, and its Markdown. The report is the list
 * of sections in {@link ReportWriter#SECTIONS}, rendered in order, as a run is the list of its stages; a new section is
 * one entry there and its renderer.
 *
 * @param name    what the section is, for a reader of the list
 * @param applies whether a run has this section (a generation run has its own, and none of the sweep's)
 * @param plots   the plots it draws into the report's {@code plots/} folder, before any section is rendered
 * @param render  its Markdown, with its plots
 */
public record ReportSection(String name, Predicate<RunResult> applies, Plots plots, Render render) {
    /** A section's plots. */
    @FunctionalInterface
    public interface Plots {
        Plots NONE = (run, analysis, dir) -> List.of();

        List<Charts.ChartFile> write(RunResult run, Analysis analysis, Path plotsDir);
    }

    /** A section's Markdown. */
    @FunctionalInterface
    public interface Render {
        void write(Markdown md, RunResult run, Analysis analysis, List<Charts.ChartFile> plots, Path reportDir);
    }

    /** Every run's, whatever its cells measured. */
    static final Predicate<RunResult> EVERY_RUN = run -> true;

    static ReportSection of(String name, Predicate<RunResult> applies, Render render) {
        return new ReportSection(name, applies, Plots.NONE, render);
    }
}
