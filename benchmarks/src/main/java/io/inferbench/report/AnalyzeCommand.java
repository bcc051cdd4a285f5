package io.inferbench.report;

import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.analysis.SeriesFit;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * {@code analyze RUN.json [OUT_DIR]}: recomputes the batch-scaling analysis, the plots and report.md from a run
 * file alone (no engine is loaded), so a run made on a GPU machine can be analysed anywhere.
 *
 * <p>The thresholds are the ones stored in the run (the same ruler), unless {@code -Dbench.regime.*} overrides
 * them. When the run already holds an analysis made with the same thresholds, the recomputed one must equal it;
 * a difference is reported and makes the command exit with 1.
 */
public final class AnalyzeCommand {
    public static final String ANALYSIS_FILE = "analysis.json";

    private AnalyzeCommand() {
    }

    /** The outcome: what was computed, and the differences from the stored analysis (empty when reproduced). */
    public record Result(Analysis analysis, List<String> differences, ReportWriter.Written written) {
    }

    public static Result run(Path runFile, Path outDir, Properties properties, PrintStream log) {
        RunResult run = RunStore.readRun(runFile);
        Analysis stored = run.analysis();
        RegimeThresholds base = stored != null && stored.thresholds() != null ? stored.thresholds() : RegimeThresholds.DEFAULTS;
        RegimeThresholds thresholds = RegimeThresholds.fromProperties(properties, base);
        Analysis fresh = RunAnalysis.analyze(run, thresholds);
        List<String> differences = new ArrayList<>();
        if (stored == null) {
            log.println("[inferbench] " + runFile + " holds no analysis (schema " + run.schemaVersion() + " or an unfinished run); computed it now");
        } else if (!thresholds.equals(stored.thresholds())) {
            log.println("[inferbench] thresholds differ from the run's own " + stored.thresholds() + ": verdicts are not comparable with the stored ones");
        } else {
            differences = differences(stored, fresh);
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

    static List<String> differences(Analysis stored, Analysis fresh) {
        List<String> differences = new ArrayList<>();
        if (stored.fits().size() != fresh.fits().size()) {
            differences.add(stored.fits().size() + " stored series, " + fresh.fits().size() + " recomputed");
            return differences;
        }
        for (int i = 0; i < stored.fits().size(); i++) {
            SeriesFit a = stored.fits().get(i);
            SeriesFit b = fresh.fits().get(i);
            if (!a.equals(b)) {
                differences.add("seq " + a.seqLen() + " (" + a.backend() + ", " + a.device() + ", " + a.model() + "): stored "
                        + a.regime().label() + " slope " + a.marginalCostMsPerSample() + ", recomputed " + b.regime().label()
                        + " slope " + b.marginalCostMsPerSample());
            }
        }
        if (!stored.seqScaling().equals(fresh.seqScaling())) {
            differences.add("sequence-length scaling fits differ");
        }
        return differences;
    }
}
