package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import io.inferbench.backend.TextTokenizer;
import io.inferbench.compare.CompareOptions;
import io.inferbench.compare.CompareResult;
import io.inferbench.compare.Comparison;
import io.inferbench.jmh.ForkJvmMain;
import io.inferbench.precision.AgreementOptions;
import io.inferbench.precision.AgreementRunner;
import io.inferbench.resources.Resources;
import io.inferbench.profile.ProfileRunner;
import io.inferbench.report.AgreementTable;
import io.inferbench.report.ProfileTable;
import io.inferbench.report.ReportWriter;
import io.inferbench.report.ResourcesTable;
import io.inferbench.report.ServingTable;
import io.inferbench.results.AgreementResult;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.ResourcesResult;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.RunTiming;
import io.inferbench.results.ServingResult;
import io.inferbench.results.WorkloadResult;
import io.inferbench.serve.RequestInputs;
import io.inferbench.serve.ServeOptions;
import io.inferbench.serve.ServingRunner;
import io.inferbench.sweep.JvmForkExecutor;
import io.inferbench.sweep.SweepOptions;
import io.inferbench.sweep.SweepRunner;
import io.inferbench.sweep.TimeAccount;
import io.inferbench.workload.TextWorkloads;
import io.inferbench.workload.Workload;
import io.inferbench.workload.WorkloadOptions;
import io.inferbench.workload.WorkloadRunner;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Properties;

/**
 * {@code sweep} ({@code mvn verify}): every cell in fork JVMs, then the tables, verdicts, plots and report, what was
 * asked for after the sweep (profile, agreement, workload, serving), and with {@code -Dbench.baseline} a comparison.
 * Everything that can be checked is checked first, the baseline file included, so that a typo fails in seconds rather
 * than after the sweep. Every phase is timed into {@code run.json}'s {@code timing}, printed as the last line.
 */
final class SweepCommand {
    private SweepCommand() {
    }

    static ExitCode run(Properties p, PrintStream out) throws InterruptedException {
        TimeAccount time = new TimeAccount();
        SweepOptions options = Settings.sweep(p);
        ServeOptions serve = Settings.serve(p, options);
        WorkloadOptions workloadOptions = Settings.workload(p);
        CompareOptions compareOptions = Settings.compare(p);
        AgreementOptions agreementOptions = Settings.agreement(p);
        Double memoryBudgetMb = Settings.memoryBudgetMb(p);
        Path baseline = Setting.BASELINE.userValue(p).map(SweepCommand::baselineFile).orElse(null);
        Workload workload = null;
        if (workloadOptions.any()) {
            workload = workloadOptions.load(options.cacheDir(), options.djlCacheDir());
            out.println("[inferbench] workload: " + workload.requests() + " requests from " + workload.source()
                    + (workload.skippedLines() > 0 ? ", " + workload.skippedLines() + " empty line(s) skipped" : "") + "; "
                    + workload.tokenizeNote());
        }
        JvmForkExecutor forks = new JvmForkExecutor(ForkJvmMain.class.getName(), options.forkJvmArgs(),
                options.measuringEnvironment(), options.verbose() ? out : null);
        SweepRunner.Outcome outcome = new SweepRunner(options, forks, out, System.console() != null, time)
                .run(System.getenv("MAVEN_CMD_LINE_ARGS"),
                        ProcessHandle.current().info().commandLine().orElse("unknown (the JVM did not report its command line)"));
        RunStore store = outcome.store();
        resources(store, memoryBudgetMb, options, out, time);
        if (Settings.bool(Setting.PROFILE, p) && outcome.run().analysis() != null) {
            RunResult run = RunStore.readRun(store.runFile());
            ProfileResult profile = time.time(TimeAccount.Phase.PROFILE,
                    () -> new ProfileRunner(options.sessionDefaults(), out).run(run, store.runDir()));
            ProfileTable.print(profile, out);
            time.time(TimeAccount.Phase.REPORT, () -> rewriteWithReport(store, run.withProfile(profile), options, out));
        }
        if (options.reference() != null) {
            RunResult run = RunStore.readRun(store.runFile());
            AgreementResult agreement = time.time(TimeAccount.Phase.AGREEMENT,
                    () -> new AgreementRunner(options.sessionDefaults(), options.reference(), agreementOptions, out).run(run));
            AgreementTable.print(agreement, out);
            time.time(TimeAccount.Phase.REPORT, () -> rewriteWithReport(store, run.withAgreement(agreement), options, out));
        }
        if (workload != null) {
            RunResult run = RunStore.readRun(store.runFile());
            Workload loaded = workload;
            WorkloadResult result = time.time(TimeAccount.Phase.WORKLOAD,
                    () -> WorkloadRunner.run(workloadOptions, loaded, options, run, out));
            time.time(TimeAccount.Phase.REPORT, () -> rewriteWithReport(store, run.withWorkload(result), options, out));
        }
        if (serve.any()) {
            serveAfterSweep(options, serve, workloadOptions, workload, outcome, out, time);
        }
        RunResult timed = RunStore.readRun(store.runFile());
        RunTiming timing = time.close(timed.cells());
        store.writeRun(timed.withTiming(timing));
        out.println("[inferbench] run written to " + store.runFile());
        ExitCode exit = ExitCode.OK;
        if (outcome.failedCells() > 0) {
            out.println("[inferbench] " + outcome.failedCells() + " cell(s) FAILED; every other cell is in run.json");
            exit = ExitCode.FINDING;
        }
        if (baseline != null) {
            out.println("[inferbench] comparing with the baseline " + baseline);
            CompareResult comparison = Comparison.run(baseline, outcome.store().runFile(), outcome.store().runDir(),
                    compareOptions, out);
            if (comparison.regressed()) {
                exit = ExitCode.FINDING;
            }
        }
        out.println(TimeAccount.line(timing));
        return exit;
    }

    /**
     * The serving points, in this JVM, after every cell: written into run.json and the report, whose other sections
     * stay as the sweep left them. A failure here keeps the sweep's results.
     */
    private static void serveAfterSweep(SweepOptions options, ServeOptions serve, WorkloadOptions workloadOptions, Workload workload,
                                        SweepRunner.Outcome outcome, PrintStream out, TimeAccount time)
            throws InterruptedException {
        RunStore store = outcome.store();
        RunResult run = RunStore.readRun(store.runFile());
        long t0 = System.nanoTime();
        ServingResult serving;
        try (TextTokenizer tokenizer = workload != null && workload.hasText()
                ? TextWorkloads.openTokenizer(workloadOptions.tokenizer(), options.cacheDir(), options.djlCacheDir()) : null) {
            RequestInputs inputs = workload == null ? null : new RequestInputs(workload,
                    options.seqLens().stream().sorted().toList(), workloadOptions.maxLength(), tokenizer);
            serving = new ServingRunner(options, serve, out, inputs).run(run);
        }
        ServingTable.printSla(serving, out);
        time.add(TimeAccount.Phase.SERVING, (System.nanoTime() - t0) / 1e9);
        time.time(TimeAccount.Phase.REPORT, () -> rewriteWithReport(store, run.withServing(serving), options, out));
    }

    /** Writes the run with what was added after the sweep, and its report again with the new sections (same paths). */
    /** Each cell's memory, CPU and energy from its forks, and the largest batch that fits the budget, into run.json. */
    private static void resources(RunStore store, Double memoryBudgetMb, SweepOptions options, PrintStream out, TimeAccount time) {
        RunResult run = RunStore.readRun(store.runFile());
        ResourcesResult resources = Resources.of(run, memoryBudgetMb, memoryBudgetMb == null
                ? "none given (-Dbench.memoryBudgetMb)" : "-Dbench.memoryBudgetMb");
        ResourcesTable.print(resources, run, out);
        time.time(TimeAccount.Phase.REPORT, () -> rewriteWithReport(store, run.withResources(resources), options, out));
    }

    private static void rewriteWithReport(RunStore store, RunResult run, SweepOptions options, PrintStream out) {
        store.writeRun(run);
        Analysis analysis = run.analysis() != null ? run.analysis() : RunAnalysis.analyze(run, options.regimeThresholds());
        ReportWriter.write(run, analysis, store.runDir());
    }

    /**
     * The baseline as a real path, read once now: it must be a run file this version reads, and a link such as
     * {@code results/latest} must mean the run it points to before this sweep moves it.
     */
    private static Path baselineFile(String value) {
        Path file = Path.of(value).toAbsolutePath().normalize();
        RunStore.readRun(file);
        try {
            return file.toRealPath();
        } catch (IOException e) {
            throw new BenchmarkException("Could not resolve the baseline " + file + ": " + e.getMessage(), e);
        }
    }
}
