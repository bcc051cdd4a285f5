package io.inferbench.report;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes a run's plots ({@code plots/}) and {@code report.md} into a folder. */
public final class ReportWriter {
    public static final String REPORT_FILE = "report.md";
    public static final String PLOTS_DIR = "plots";

    /** What was written. */
    public record Written(Path report, List<Charts.ChartFile> charts) {
    }

    private ReportWriter() {
    }

    public static Written write(RunResult run, Analysis analysis, Path dir) {
        Path plots = dir.resolve(PLOTS_DIR);
        try {
            Files.createDirectories(plots);
        } catch (IOException e) {
            throw new BenchmarkException("Could not create " + plots + ": " + e
                    + ". Choose a writable output folder", e);
        }
        List<Charts.ChartFile> charts = Charts.write(run, analysis == null ? null : analysis.fits(), plots);
        List<Charts.ChartFile> servingCharts = ServingCharts.write(run, plots);
        List<Charts.ChartFile> workloadCharts = WorkloadCharts.write(run, plots);
        List<Charts.ChartFile> profileCharts = ProfileCharts.write(run, plots);
        List<Charts.ChartFile> generationCharts = GenerationCharts.write(run, plots);
        Path report = dir.resolve(REPORT_FILE);
        String markdown = run.generation() != null ? MarkdownReport.renderGeneration(run, generationCharts, dir)
                : MarkdownReport.render(run, analysis, charts, servingCharts, workloadCharts, profileCharts, dir);
        RunStore.writeAtomically(report, out -> out.write(markdown.getBytes(StandardCharsets.UTF_8)));
        List<Charts.ChartFile> all = new java.util.ArrayList<>(charts);
        all.addAll(servingCharts);
        all.addAll(workloadCharts);
        all.addAll(profileCharts);
        all.addAll(generationCharts);
        return new Written(report, all);
    }
}
