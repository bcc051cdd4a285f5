package io.inferbench.pipeline;

import io.inferbench.report.ReportWriter;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.StageResult;
import io.inferbench.runner.TimeAccount;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a run's stages in order, each the same way, with one failure policy:
 * <ul>
 *   <li><b>Before the run's folder exists</b> (the first stage, the preflight, which checks everything that can be
 *       checked before measuring), a failure ends the run at once and is thrown to the caller: nothing was measured and
 *       nothing is written. The folder is created once that stage has passed.</li>
 *   <li><b>After it</b>, a stage that fails is recorded in {@code run.json}'s {@code stages} with its error (its stack
 *       trace in {@code console.log}); the stages that need it are recorded as not run; every other stage still runs.
 *       Nothing measured is lost: {@code run.json} is written after every stage.</li>
 *   <li>A stage that needs one which did not apply to the run (the sweep, in a generation run) does not apply either,
 *       and is not recorded.</li>
 *   <li>A file of the run that cannot be written ({@link RunStore.WriteFailed}: a full disk, a read-only folder) ends
 *       the run at once: what was written before is whole and kept, and nothing more could be.</li>
 * </ul>
 * Every stage is timed the same way, into {@code stages[].seconds} and the run's time account ({@link TimeAccount}).
 * When the stages are done, the account is closed into {@code run.json}'s {@code timing}, and {@code report.md} is
 * rendered once, from the run as written, its wall-time section included; the rendering itself is recorded as the
 * stage {@value #REPORT}, after the account.
 */
public final class Pipeline {
    /** The name the report's rendering is recorded under. */
    public static final String REPORT = "report";

    private final Path resultsDir;
    private final PrintStream console;
    private final TimeAccount time;

    /**
     * @param resultsDir where the run's folder is created once the first stage has passed
     * @param time       the run's time account, which the sweep also adds to
     */
    public Pipeline(Path resultsDir, PrintStream console, TimeAccount time) {
        this.resultsDir = resultsDir;
        this.console = console;
        this.time = time;
    }

    /** The finished run and its folder. */
    public record Outcome(RunResult run, RunStore store) {
    }

    /**
     * Runs {@code stages} in order.
     *
     * @throws Exception what the first stage threw: the run was refused before anything was measured
     */
    public Outcome run(List<Stage> stages) throws Exception {
        RunResult run = null;
        RunStore store = null;
        List<StageResult> records = new ArrayList<>();
        for (Stage stage : stages) {
            if (run != null && !stage.applies(run)) {
                continue;
            }
            if (stage.needs().stream().anyMatch(n -> records.stream().noneMatch(r -> r.name().equals(n)))) {
                continue; // a stage it needs did not apply to this run (the sweep in a generation run): neither does it
            }
            List<String> missing = stage.needs().stream().filter(n -> !succeeded(records, n)).toList();
            if (!missing.isEmpty()) {
                String why = "needs " + String.join(", ", missing) + ", which did not succeed";
                records.add(new StageResult(stage.name(), StageResult.NOT_RUN, 0, why));
                console.println("[inferbench] " + stage.name() + " not run: it " + why);
            } else {
                long startNs = System.nanoTime();
                try {
                    run = stage.run(run, new RunContext(store, console));
                    records.add(new StageResult(stage.name(), StageResult.OK, seconds(startNs), null));
                } catch (Exception | LinkageError e) {
                    if (store == null || e instanceof RunStore.WriteFailed) {
                        throw e; // nothing can be kept any more: what was written stays as it was
                    }
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                    }
                    String status = StageResult.FAILED;
                    if (e instanceof Stage.Failed partly) {
                        run = partly.kept() != null ? partly.kept() : run;
                        status = partly.inCodeUnderTest() ? StageResult.FAILED_IN_CODE : status;
                    }
                    records.add(new StageResult(stage.name(), status, seconds(startNs), String.valueOf(e)));
                    failed(stage.name(), e, store);
                }
                time.add(stage.phase(), records.get(records.size() - 1).seconds());
            }
            if (store == null) {
                store = RunStore.create(resultsDir, run.runId());
            }
            run = run.withStages(records);
            store.writeRun(run);
        }
        run = run.withTiming(time.close(run.forkRuns()));
        store.writeRun(run);
        return new Outcome(render(run, store, records), store);
    }

    /** {@code report.md} and its plots, once, from the run as written; a failure is recorded and leaves run.json whole. */
    private RunResult render(RunResult run, RunStore store, List<StageResult> records) {
        long startNs = System.nanoTime();
        try {
            ReportWriter.Written written = ReportWriter.write(run, run.analysis(), store.runDir());
            console.println();
            console.println("[inferbench] report: " + written.report() + " (" + written.charts().size() + " charts in "
                    + written.report().resolveSibling(ReportWriter.PLOTS_DIR) + ")");
            records.add(new StageResult(REPORT, StageResult.OK, seconds(startNs), null));
        } catch (RuntimeException e) {
            records.add(new StageResult(REPORT, StageResult.FAILED, seconds(startNs), String.valueOf(e)));
            failed(REPORT, e, store);
        }
        RunResult rendered = run.withStages(records);
        store.writeRun(rendered);
        return rendered;
    }

    /** Says on the console that a stage failed, and keeps its stack trace in the run's log. */
    private void failed(String stage, Throwable e, RunStore store) {
        console.println("[inferbench] " + stage + " FAILED (" + e + "); run.json records it, every stage that does not need "
                + "it still runs; the stack trace is in " + store.consoleLog());
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        try {
            Files.writeString(store.consoleLog(), "[inferbench] " + stage + " FAILED:" + System.lineSeparator() + trace,
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException logFailure) {
            console.println("[inferbench] (and could not append its stack trace to " + store.consoleLog() + ": " + logFailure + ")");
        }
    }

    private static boolean succeeded(List<StageResult> records, String name) {
        return records.stream().anyMatch(r -> r.name().equals(name) && !r.failed());
    }

    private static double seconds(long startNs) {
        return (System.nanoTime() - startNs) / 1e9;
    }
}
