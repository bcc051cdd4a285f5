package io.inferbench.jmh;

import io.inferbench.BenchmarkException;
import io.inferbench.report.RunStore;
import io.inferbench.sweep.SweepOptions;
import io.inferbench.sweep.SweepRunner;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * Command-line entry point ({@code mvn verify} runs {@code sweep}).
 *
 * <p>Exit codes: 0 all cells measured; 1 the sweep ran but some cells failed (their errors are in
 * {@code run.json}, every other cell is kept); 2 bad input or an unusable set-up, found before measuring.
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
            err.println("[inferbench] unknown command '" + command + "': expected one of [sweep]");
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

    private static int sweep(PrintStream out) {
        SweepOptions options = SweepOptions.fromProperties(System.getProperties());
        SweepRunner.Outcome outcome = new SweepRunner(options,
                new JmhCellExecutor(options), out)
                .run(System.getenv("MAVEN_CMD_LINE_ARGS"),
                        ProcessHandle.current().info().commandLine().orElse(String.join(" ", Arrays.asList("java", "InferbenchMain"))));
        out.println();
        out.println("[inferbench] run written to " + outcome.store().runFile());
        out.println("[inferbench] JMH's own results: " + outcome.store().runDir().resolve(RunStore.JMH_FILE));
        if (outcome.failedCells() > 0) {
            out.println("[inferbench] " + outcome.failedCells() + " cell(s) FAILED; every other cell is in run.json");
            return 1;
        }
        return 0;
    }
}
