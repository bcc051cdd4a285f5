package io.inferbench.cli;

import io.inferbench.compare.CompareResult;
import io.inferbench.compare.Comparison;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Properties;

/**
 * {@code compare}: baseline and candidate from {@code -Dbaseline}/{@code -Dcandidate} (or the first two arguments),
 * written into {@code -Dout} or the candidate's folder. Exit code 1 when a cell regressed, so it works as a CI gate;
 * 2 when the runs cannot be compared or the input is wrong, never 1.
 */
final class CompareCommand {
    static final String USAGE = "compare needs two run files: mvn -q -pl benchmarks -am compile exec:java@compare "
            + "-Dbaseline=results/previous/run.json -Dcandidate=results/latest/run.json [-Dout=folder] [-Dcompare.threshold=5]";

    private CompareCommand() {
    }

    static ExitCode run(String[] args, Properties p, PrintStream out, PrintStream err) {
        PropertyNames.checkKnown(p);
        String baseline = InferbenchMain.argument(args, 0) != null ? InferbenchMain.argument(args, 0)
                : CommandSetting.COMPARE_BASELINE.userValue(p).orElse(null);
        String candidate = InferbenchMain.argument(args, 1) != null ? InferbenchMain.argument(args, 1)
                : CommandSetting.COMPARE_CANDIDATE.userValue(p).orElse(null);
        if (baseline == null || candidate == null) {
            err.println("[inferbench] " + USAGE);
            return ExitCode.BAD_INPUT;
        }
        Path candidateFile = Path.of(candidate).toAbsolutePath().normalize();
        String outArg = InferbenchMain.argument(args, 2) != null ? InferbenchMain.argument(args, 2) : CommandSetting.OUT.userValue(p).orElse(null);
        Path outDir = outArg != null ? Path.of(outArg).toAbsolutePath().normalize() : candidateFile.getParent();
        CompareResult result = Comparison.run(Path.of(baseline).toAbsolutePath().normalize(), candidateFile, outDir,
                Settings.compare(p), out);
        return switch (result.gate().decision()) {
            case REGRESSION, FAILED -> ExitCode.FINDING;
            case UNDECIDED -> ExitCode.UNDECIDED;
            case NO_REGRESSION -> ExitCode.OK;
        };
    }
}
