package io.inferbench.jmh;

import io.inferbench.BenchmarkException;
import io.inferbench.report.AnalyzeCommand;
import io.inferbench.report.CompareCommand;
import io.inferbench.report.CompareResult;
import io.inferbench.report.RunStore;
import io.inferbench.sweep.SweepOptions;
import io.inferbench.sweep.SweepRunner;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Command-line entry point: {@code sweep} ({@code mvn verify}), {@code analyze RUN.json [OUT_DIR]} and
 * {@code compare BASELINE.json CANDIDATE.json [OUT_DIR]}.
 *
 * <p>Exit codes: 0 success; 1 the sweep ran but some cells failed (their errors are in {@code run.json}, every
 * other cell is kept), {@code analyze} could not reproduce the run's stored analysis, or {@code compare} (also
 * the one {@code -Dbench.baseline} runs after a sweep) found a significant regression; 2 bad input, incomparable
 * runs or an unusable set-up, found before measuring.
 */
public final class InferbenchMain {
    private InferbenchMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String command = args.length == 0 ? "sweep" : args[0];
        try {
            if (command.equals("sweep")) {
                return sweep(out);
            }
            if (command.equals("analyze")) {
                return analyze(Arrays.copyOfRange(args, 1, args.length), out, err);
            }
            if (command.equals("compare")) {
                return compare(Arrays.copyOfRange(args, 1, args.length), out, err);
            }
            err.println("[inferbench] unknown command '" + command + "': expected one of [sweep, analyze, compare]");
            return 2;
        } catch (BenchmarkException e) {
            err.println();
            err.println("[inferbench] ERROR: " + e.getMessage());
            if (Boolean.getBoolean("bench.trace")) {
                e.printStackTrace(err);
            } else {
                err.println("[inferbench] (add -Dbench.trace=true for the full stack trace)");
            }
            return 2;
        }
    }

    private static int analyze(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 1 || args[0].isBlank()) {
            err.println("[inferbench] analyze needs a run file: mvn -q -pl benchmarks exec:java@analyze -Drun=results/<run-id>/run.json"
                    + " [-Dout=folder]");
            return 2;
        }
        Path runFile = Path.of(args[0]).toAbsolutePath().normalize();
        Path outDir = args.length > 1 && !args[1].isBlank() ? Path.of(args[1]).toAbsolutePath() : runFile.getParent();
        AnalyzeCommand.Result result = AnalyzeCommand.run(runFile, outDir, System.getProperties(), out);
        return result.differences().isEmpty() ? 0 : 1;
    }

    private static int compare(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2 || args[0].isBlank() || args[1].isBlank()) {
            err.println("[inferbench] compare needs two run files: mvn -q -pl benchmarks exec:java@compare "
                    + "-Dbaseline=BASELINE/run.json -Dcandidate=CANDIDATE/run.json [-Dout=folder] [-Dcompare.threshold=5]");
            return 2;
        }
        Path baseline = Path.of(args[0]).toAbsolutePath().normalize();
        Path candidate = Path.of(args[1]).toAbsolutePath().normalize();
        Path outDir = args.length > 2 && !args[2].isBlank() ? Path.of(args[2]).toAbsolutePath() : candidate.getParent();
        CompareResult result = CompareCommand.run(baseline, candidate, outDir,
                CompareCommand.Options.fromProperties(System.getProperties()), out);
        return result.regressed() ? 1 : 0;
    }

    private static int sweep(PrintStream out) {
        SweepOptions options = SweepOptions.fromProperties(System.getProperties());
        SweepRunner.Outcome outcome = new SweepRunner(options,
                new JmhCellExecutor(options), out)
                .run(System.getenv("MAVEN_CMD_LINE_ARGS"),
                        ProcessHandle.current().info().commandLine().orElse("unknown (the JVM did not report its command line)"));
        out.println();
        out.println("[inferbench] run written to " + outcome.store().runFile());
        out.println("[inferbench] JMH's own results: " + outcome.store().runDir().resolve(RunStore.JMH_FILE));
        int status = 0;
        if (outcome.failedCells() > 0) {
            out.println("[inferbench] " + outcome.failedCells() + " cell(s) FAILED; every other cell is in run.json");
            status = 1;
        }
        String baseline = System.getProperty("bench.baseline", "");
        if (!baseline.isBlank()) {
            out.println();
            out.println("[inferbench] comparing with the baseline " + baseline);
            CompareResult comparison = CompareCommand.run(Path.of(baseline).toAbsolutePath().normalize(), outcome.store().runFile(),
                    outcome.store().runDir(), CompareCommand.Options.fromProperties(System.getProperties()), out);
            if (comparison.regressed()) {
                status = 1;
            }
        }
        return status;
    }
}
