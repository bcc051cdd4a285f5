package io.inferbench.report;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a run's plots ({@code plots/}) and {@code report.md} into a folder: the sections of {@link #SECTIONS} that apply
 * to the run, in order, each with the plots it drew.
 */
public final class ReportWriter {
    public static final String REPORT_FILE = "report.md";
    public static final String PLOTS_DIR = "plots";

    /** A run of the sweep's cells (forward passes): not a generation run. */
    private static final java.util.function.Predicate<RunResult> SWEEP = run -> run.generation() == null;
    /** A generation run. */
    private static final java.util.function.Predicate<RunResult> GENERATION = run -> run.generation() != null;

    /** Who measured beside the run, when it measured anyway ({@code -Dbench.concurrent=allow}); null when it was alone. */
    static String beside(io.inferbench.results.RunResult run) {
        return run.config() == null ? null : run.config().provenance().besideAnotherRun();
    }

    /** report.md, section by section: the answers first, one line each with its evidence, then the evidence. */
    static final List<ReportSection> SECTIONS = List.of(
            ReportSection.of("title", ReportSection.EVERY_RUN, (md, run, a, p, dir) -> md.line("# inferbench "
                    + (run.generation() != null ? "generation " : "") + "run " + run.runId()
                    + (beside(run) == null ? "" : ": measured beside another inferbench run")).blank()),
            ReportSection.of("measured beside another run", run -> beside(run) != null, (md, run, a, p, dir) -> md.line(
                    "> **Measured beside another inferbench run** (" + beside(run) + ", -Dbench.concurrent=allow): each read "
                    + "a machine the other was using, so these numbers are not a solo run's. Measure again alone before "
                    + "comparing them.").blank()),
            ReportSection.of("answers", SWEEP, (md, run, a, p, dir) -> AnswersReport.section(md, run, a)),
            ReportSection.of("memory growing", run -> run.cells().stream().anyMatch(c -> c.memoryGrowing() != null),
                    (md, run, a, p, dir) -> {
                        md.line("## Memory that grows with the calls").blank();
                        md.line("These cells' measured passes (after their inputs were prepared and their warm-up done) grew "
                                + "the process's direct buffers by more than 32 MiB, or its resident set by more than 512 MiB "
                                + "and half its start: a leak, most likely, that a longer run would run out of memory on "
                                + "(docs/resources.md).").blank();
                        run.cells().stream().filter(c -> c.memoryGrowing() != null)
                                .forEach(c -> md.line("- **" + c.id() + "**: " + c.memoryGrowing()));
                        md.blank();
                    }),
            ReportSection.of("unstable cells", run -> run.cells().stream().anyMatch(c -> c.unstable() != null),
                    (md, run, a, p, dir) -> {
                        md.line("## Unstable cells").blank();
                        md.line("Their numbers changed under the harness's feet: what a cell kept disagrees with what it set "
                                + "aside, or its forks disagree, beyond what the machine's noise explains. They are not one "
                                + "steady state: look for a subject that changes with its calls (a cache, a leak, a "
                                + "background task).").blank();
                        run.cells().stream().filter(c -> c.unstable() != null)
                                .forEach(c -> md.line("- **" + c.id() + "**: " + c.unstable()));
                        md.blank();
                    }),
            ReportSection.of("answers under load", run -> GenerationLoadReport.of(run) != null
                    && GenerationLoadReport.of(run).answer() != null, (md, run, a, p, dir) -> GenerationLoadReport.answers(md, run)),
            ReportSection.of("conditions", ReportSection.EVERY_RUN, (md, run, a, p, dir) -> MarkdownReport.conditions(md, run)),
            ReportSection.of("verdicts", SWEEP, (md, run, a, p, dir) -> MarkdownReport.verdicts(md, a)),
            ReportSection.of("latency per bucket", SWEEP, (md, run, a, p, dir) -> MarkdownReport.buckets(md, run)),
            ReportSection.of("run cost", SWEEP, (md, run, a, p, dir) -> RunCostReport.section(md, run)),
            ReportSection.of("resources", SWEEP, (md, run, a, p, dir) -> ResourcesReport.section(md, run)),
            ReportSection.of("stages of the call", StagesReport::applies, (md, run, a, p, dir) -> StagesReport.section(md, run)),
            ReportSection.of("sequence-length scaling", SWEEP, (md, run, a, p, dir) -> MarkdownReport.seqScaling(md, a)),
            new ReportSection("batch-scaling plots", SWEEP,
                    (run, a, dir) -> Charts.write(run, a == null ? null : a.fits(), dir),
                    (md, run, a, plots, dir) -> MarkdownReport.plots(md, plots, dir)),
            new ReportSection("profile", SWEEP, (run, a, dir) -> ProfileCharts.write(run, dir),
                    (md, run, a, plots, dir) -> ProfileReport.section(md, run.profile(), plots, dir)),
            ReportSection.of("agreement", SWEEP, (md, run, a, p, dir) -> AgreementReport.section(md, run.agreement())),
            new ReportSection("workload", SWEEP, (run, a, dir) -> WorkloadCharts.write(run, dir),
                    (md, run, a, plots, dir) -> WorkloadReport.section(md, run.workload(), plots, dir)),
            new ReportSection("serving", SWEEP, (run, a, dir) -> ServingCharts.write(run, dir),
                    (md, run, a, plots, dir) -> ServingReport.section(md, run.serving(), plots, dir)),
            new ReportSection("generation", GENERATION, (run, a, dir) -> GenerationCharts.write(run, dir),
                    (md, run, a, plots, dir) -> GenerationReport.section(md, run.generation(), plots, dir)),
            new ReportSection("generation under load", run -> GenerationLoadReport.of(run) != null,
                    (run, a, dir) -> GenerationLoadReport.charts(run, dir),
                    (md, run, a, plots, dir) -> GenerationLoadReport.section(md, run, plots, dir)),
            ReportSection.of("risks", SWEEP, (md, run, a, p, dir) -> MarkdownReport.risks(md, run)));

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
        List<ReportSection> sections = SECTIONS.stream().filter(s -> s.applies().test(run)).toList();
        Map<ReportSection, List<Charts.ChartFile>> charts = new LinkedHashMap<>();
        sections.forEach(s -> charts.put(s, s.plots().write(run, analysis, plots)));
        Markdown md = new Markdown();
        sections.forEach(s -> s.render().write(md, run, analysis, charts.get(s), dir));
        Path report = dir.resolve(REPORT_FILE);
        String markdown = md.toString();
        RunStore.writeAtomically(report, out -> out.write(markdown.getBytes(StandardCharsets.UTF_8)));
        List<Charts.ChartFile> all = new ArrayList<>();
        charts.values().forEach(all::addAll);
        return new Written(report, all);
    }
}
