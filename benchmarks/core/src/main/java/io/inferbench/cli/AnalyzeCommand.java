package io.inferbench.cli;

import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.generate.GenerationSection;
import io.inferbench.report.GenerationReport;
import io.inferbench.report.ReportWriter;
import io.inferbench.report.VerdictTable;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.Json;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * {@code analyze}: recomputes the batch-scaling analysis, the plots and report.md from a run file alone (no engine is
 * loaded), so a run made on a GPU machine can be analysed anywhere.
 *
 * <p>The thresholds are the ones stored in the run (the same ruler), unless {@code -Dbench.regime.*} overrides
 * them. When the run already holds an analysis made with the same thresholds, the recomputed one must equal it;
 * a difference is reported and makes the command exit with 1. Fields that a newer schema added (the borderline label
 * of schema 3) are computed fresh and left out of that check for older runs.
 */
public final class AnalyzeCommand {
    public static final String ANALYSIS_FILE = "analysis.json";
    static final String USAGE = "analyze needs a run file: mvn -q -pl benchmarks -am compile exec:java@analyze "
            + "-Drun=results/latest/run.json [-Dout=folder]";

    private AnalyzeCommand() {
    }

    /** The outcome: what was computed, and the differences from the stored analysis (empty when reproduced). */
    public record Result(Analysis analysis, List<String> differences, ReportWriter.Written written) {
    }

    static ExitCode run(String[] args, Properties p, PrintStream out, PrintStream err) {
        PropertyNames.checkKnown(p);
        String run = InferbenchMain.argument(args, 0) != null ? InferbenchMain.argument(args, 0) : CommandSetting.RUN.userValue(p).orElse(null);
        if (run == null) {
            err.println("[inferbench] " + USAGE);
            return ExitCode.BAD_INPUT;
        }
        Path runFile = Path.of(run).toAbsolutePath().normalize();
        String out1 = InferbenchMain.argument(args, 1) != null ? InferbenchMain.argument(args, 1) : CommandSetting.OUT.userValue(p).orElse(null);
        Path outDir = out1 != null ? Path.of(out1).toAbsolutePath().normalize() : runFile.getParent();
        Result result = analyze(runFile, outDir, p, out);
        return result.differences().isEmpty() ? ExitCode.OK : ExitCode.FINDING;
    }

    public static Result analyze(Path runFile, Path outDir, Properties properties, PrintStream log) {
        RunResult run = RunStore.readRun(runFile);
        if (run.generation() != null) {
            return analyzeGeneration(run, runFile, outDir, properties, log);
        }
        Analysis stored = run.analysis();
        RegimeThresholds thresholds = Settings.regime(properties, stored != null ? stored.thresholds() : null);
        Analysis fresh = RunAnalysis.analyze(run, thresholds);
        List<String> differences = new ArrayList<>();
        if (stored == null) {
            log.println("[inferbench] NOT CHECKED: " + runFile + " holds no stored analysis (schema " + run.schemaVersion()
                    + ", or a run whose analysis did not finish), so there is nothing to reproduce; computed it now. Exit 0 "
                    + "here says nothing about reproduction");
        } else if (!thresholds.equals(stored.thresholds())) {
            log.println("[inferbench] NOT CHECKED: the thresholds given (-Dbench.regime.*) differ from the run's own "
                    + stored.thresholds() + ", so the stored verdicts were not compared with these. Exit 0 here says nothing "
                    + "about reproduction; drop the -Dbench.regime.* settings to check it");
        } else {
            differences = differences(stored, fresh, run.schemaVersion());
            log.println(differences.isEmpty()
                    ? "[inferbench] stored analysis reproduced exactly (" + fresh.fits().size() + " series)"
                    : "[inferbench] the recomputed analysis DIFFERS from the stored one: " + String.join("; ", differences));
        }
        VerdictTable.print(fresh, log);
        RunResult analyzed = run.withAnalysis(fresh);
        ReportWriter.Written written = ReportWriter.write(analyzed, fresh, outDir);
        RunStore.writeAtomically(outDir.resolve(ANALYSIS_FILE), out -> Json.mapper().writeValue(out, fresh));
        log.println();
        log.println("[inferbench] report: " + written.report() + "; analysis: " + outDir.resolve(ANALYSIS_FILE));
        return new Result(fresh, differences, written);
    }

    /**
     * A generation run, finished or not: each phase's fits recomputed from its cells with the thresholds in force (the
     * defaults, or {@code -Dbench.regime.*}) and compared with the stored ones, the section printed, the report rendered.
     */
    static Result analyzeGeneration(RunResult run, Path runFile, Path outDir, Properties properties, PrintStream log) {
        GenerationResult g = run.generation();
        List<GenerationResult.Fit> fresh = GenerationSection.fits(g.cells(), Settings.regime(properties, null));
        List<String> differences = new ArrayList<>();
        if (!fresh.equals(g.fits())) {
            differences.add(g.fits().size() + " stored phase fits, " + fresh.size() + " recomputed, and they differ: stored "
                    + g.fits().stream().map(f -> f.phase() + " " + f.regime()).toList() + ", recomputed "
                    + fresh.stream().map(f -> f.phase() + " " + f.regime()).toList());
        }
        log.println(differences.isEmpty()
                ? "[inferbench] the stored generation fits reproduced exactly (" + fresh.size() + " phase series, "
                        + g.cells().size() + " cells" + (run.finishedAt() == null ? ", of a run that did not finish" : "") + ")"
                : "[inferbench] the recomputed generation fits DIFFER from the stored ones: " + String.join("; ", differences));
        GenerationReport.print(g, log);
        ReportWriter.Written written = ReportWriter.write(run, null, outDir);
        log.println();
        log.println("[inferbench] report: " + written.report());
        return new Result(null, differences, written);
    }

    static List<String> differences(Analysis stored, Analysis fresh, int storedSchema) {
        List<String> differences = new ArrayList<>();
        if (stored.fits().size() != fresh.fits().size()) {
            differences.add(stored.fits().size() + " stored series, " + fresh.fits().size() + " recomputed");
            return differences;
        }
        for (int i = 0; i < stored.fits().size(); i++) {
            SeriesFit a = stored.fits().get(i);
            SeriesFit b = storedSchema < 3 ? withoutBorderline(fresh.fits().get(i)) : fresh.fits().get(i);
            if (!a.equals(b)) {
                differences.add(Text.seq(a.seqLen()) + " (" + a.backend() + ", " + a.device() + ", " + a.model() + "): stored "
                        + a.verdictLabel() + " slope " + a.marginalCostMsPerSample() + ", recomputed " + b.verdictLabel()
                        + " slope " + b.marginalCostMsPerSample());
            }
        }
        if (!stored.seqScaling().equals(fresh.seqScaling())) {
            differences.add("sequence-length scaling fits differ");
        }
        return differences;
    }

    /** A fit as a schema-2 run stored it: no borderline label, and none in the reason. */
    static SeriesFit withoutBorderline(SeriesFit f) {
        int mark = f.reason().indexOf("; borderline: ");
        String reason = mark < 0 ? f.reason() : f.reason().substring(0, mark);
        return new SeriesFit(f.series(), f.points(), f.lines(), f.marginal(), f.gains(), f.knee(), f.kneeBatch(),
                new SeriesFit.Verdict(f.regime(), reason, f.advice(), null, null));
    }
}
