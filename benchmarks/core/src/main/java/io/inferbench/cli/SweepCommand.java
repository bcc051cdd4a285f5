package io.inferbench.cli;

import io.inferbench.option.PropertyValues;
import io.inferbench.option.Option;
import io.inferbench.workload.WorkloadSetting;
import io.inferbench.serve.ServeSetting;
import io.inferbench.precision.AgreementSetting;
import io.inferbench.BenchmarkException;
import io.inferbench.compare.BaselineCheck;
import io.inferbench.generate.GenerationKind;
import io.inferbench.generate.Sampling;
import io.inferbench.inputs.KvPair;
import io.inferbench.jmh.ForkJvmMain;
import io.inferbench.model.ModelSource;
import io.inferbench.pipeline.BenchmarkRun;
import io.inferbench.pipeline.Pipeline;
import io.inferbench.pipeline.RunOptions;
import io.inferbench.pipeline.ServingFork;
import io.inferbench.results.RunResult;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.JvmForkExecutor;
import io.inferbench.runner.MachineLock;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TimeAccount;
import io.inferbench.serve.ServeOptions;
import io.inferbench.serve.generation.GenerationLoadOptions;
import io.inferbench.sweep.SweptAxis;
import io.inferbench.workload.Workload;
import io.inferbench.workload.WorkloadOptions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;

/**
 * {@code sweep} ({@code mvn verify}): a benchmark run ({@link BenchmarkRun}), of forward passes or, with
 * {@code -Dbench.generate}, of generations. Every setting is read and checked first, the
 * workload and the baseline files included, and the preflight checks the rest before the first cell, so that a mistake
 * fails in seconds with exit code 2 rather than after the sweep. The exit code then says how the run ended
 * ({@link ExitCode#of(RunResult)}), and the last line where its time went.
 */
final class SweepCommand {
    private SweepCommand() {
    }

    /**
     * A run in fork JVMs, under the machine's measuring lock ({@link MachineLock}): it waits while another inferbench run
     * measures here, or with {@code -Dbench.concurrent=allow} measures beside it and records so.
     */
    static ExitCode run(Properties p, PrintStream out) throws Exception {
        PropertyNames.checkKnown(p);
        checkValues(p);
        MachineLock.Mode mode = MachineLock.Mode.named(Setting.CONCURRENT.value(p));
        Path results = Settings.path(p, Setting.RESULTS, Settings.root(p));
        // The lock lives in the run's temporary folder: this JVM's, unless the run's properties name another (a test's).
        Path lockFolder = Path.of(p.getProperty("java.io.tmpdir", System.getProperty("java.io.tmpdir")));
        try (MachineLock lock = MachineLock.acquire(lockFolder, mode, "results in " + results,
                out, Duration.ofSeconds(2))) {
            Properties withLock = p;
            if (lock.besideAnotherRun() != null) {
                withLock = new Properties();
                withLock.putAll(p);
                withLock.setProperty(SweepOptions.Output.BESIDE_PROPERTY, lock.besideAnotherRun());
            }
            return run(withLock, out, options -> new JvmForkExecutor(ForkJvmMain.class.getName(), options.forkJvms().jvmArgs(),
                    options.forkJvms().measuringEnvironment(), options.output().verbose() ? out : null), true);
        }
    }

    /** A decoder with a key/value cache given to a sweep of forward passes: it is measured by generation. */
    private static void refuseDecoders(Properties p) {
        PropertyValues.names(Setting.MODEL, p).stream()
                .filter(m -> ModelSource.parse(m) instanceof ModelSource.BuiltinDecoder
                        || ModelSource.parse(m) instanceof ModelSource.BuiltinSeq2Seq
                        || ModelSource.parse(m) instanceof ModelSource.OnnxFolder)
                .findFirst().ifPresent(m -> {
                    throw new BenchmarkException(m + " is a decoder with a key/value cache: measure it by "
                            + "generation, e.g. -Dbench.generate=16 -Dbench.seq=64 (docs/generation.md)"
                            + (ModelSource.parse(m) instanceof ModelSource.OnnxFolder
                            ? "; to time one graph's forward pass instead, give the path of its .onnx file" : ""));
                });
    }

    /**
     * Reads every setting's value once before the run waits for the machine ({@link MachineLock}): a value it would
     * refuse (an empty one, a length out of range, a malformed list) is refused now, not after another run's minutes.
     * Reading has no effect besides; the run reads them again.
     */
    static void checkValues(Properties p) {
        io.inferbench.compare.AbSetting.read(p, Setting.TARGET.userValue(p).isPresent());
        GenerationLoadSettings.check(p);
        if (Setting.GENERATE.userValue(p).isEmpty()) {
            refuseDecoders(p);
        }
        SweepOptions sweep = Settings.sweep(p);
        Settings.serve(Setting.GENERATE.userValue(p).isPresent() ? withoutLoad(p) : p, sweep);
        Settings.workload(p);
        Settings.agreement(p);
        Settings.shard(p);
        Settings.memoryBudgetMb(p);
        Settings.compare(p);
    }

    /**
     * Generation's plan with its lengths set to {@code [0]} (batch only) when its models are encoder-decoders whose
     * encoder has no axis for the sweep's lengths to bind, as Whisper's export fixes its frames: a sweep over lengths
     * the model cannot take would be refused, and one cell per batch is what it can measure. Decided as for a sweep's
     * models ({@link SweptAxis#bind}), on each folder's encoder; decoder-only models always sweep their prompt.
     */
    static SweepOptions sourceAxis(SweepOptions options, boolean lengthsGiven, PrintStream out) {
        List<String> encoders = new java.util.ArrayList<>();
        boolean any = false;
        for (String model : options.plan().models()) {
            if (ModelSource.parse(model) instanceof ModelSource.OnnxFolder folder && folder.export().encoder() != null) {
                encoders.add(folder.export().encoder().toString());
                any = true;
            } else {
                encoders.add(model);
            }
        }
        if (!any) {
            return options;
        }
        return SweptAxis.bind(options.withModels(encoders), lengthsGiven, false, out).isBatchOnly() ? options.batchOnly()
                : options;
    }

    /** As above, each fork JVM run by the executor {@code forks} makes for the run's options (a test's, in-process). */
    static ExitCode run(Properties p, PrintStream out, Function<SweepOptions, ForkExecutor> forks) throws Exception {
        return run(p, out, forks, false);
    }

    /**
     * As above.
     *
     * @param servedApart a target is served in a JVM of its own ({@link ServingFork}); false serves it in this JVM, as
     *                    a test's in-process run does
     */
    static ExitCode run(Properties p, PrintStream out, Function<SweepOptions, ForkExecutor> forks, boolean servedApart)
            throws Exception {
        io.inferbench.compare.AbOptions ab = io.inferbench.compare.AbSetting.read(p,
                Setting.TARGET.userValue(p).isPresent());
        if (ab != null) {
            return AbCommand.run(p, ab, out, forks);
        }
        GenerationLoadSettings.check(p);
        boolean generates = Setting.GENERATE.userValue(p).isPresent();
        SweepOptions generationSweep = generates ? sourceAxis(Settings.sweep(p), Setting.SEQ.userValue(p).isPresent(), out) : null;
        GenerationLoadOptions load = generates ? GenerationLoadSettings.load(p, generationSweep) : null;
        GenerationKind generation = generation(p, load);
        if (generation == null) {
            refuseDecoders(p);
        }
        if (Setting.PROFILE.userValue(p).isPresent() && PropertyValues.bool(Setting.PROFILE, p)
                && Setting.TARGET.userValue(p).isPresent() && Setting.BACKEND.userValue(p).isEmpty()) {
            throw new BenchmarkException("-Dbench.profile=true places an engine's cells on the roofline from the peaks it "
                    + "measures and the work it counts in its model, and a target (-Dbench.target) is your own code: it has no "
                    + "peak or op profile the harness can measure, so its cells cannot be placed. Drop -Dbench.profile, or add "
                    + "the engine that runs your model to compare against it (-Dbench.backend=NAME); your target's "
                    + "stages show where its time goes (docs/targets.md)");
        }
        WorkloadOptions workloadOptions = Settings.workload(p);
        SweepOptions options = generation != null ? generationSweep
                : SweptAxis.bind(Settings.sweep(p), Setting.SEQ.userValue(p).isPresent(), workloadOptions.any(), out);
        ServeOptions serve = generation != null ? Settings.serve(withoutLoad(p), options) : Settings.serve(p, options);
        BaselineCheck baseline = Setting.BASELINE.userValue(p).map(value -> BaselineCheck.read(value, Settings.compare(p)))
                .orElse(null);
        Workload workload = null;
        if (workloadOptions.any()) {
            workload = workloadOptions.load(options.engines().cacheDir(), options.engines().nativeCacheDir());
            out.println("[inferbench] workload: " + workload.requests() + " requests from " + workload.source()
                    + (workload.skippedLines() > 0 ? ", " + workload.skippedLines() + " empty line(s) skipped" : "") + "; "
                    + workload.tokenizeNote());
        }
        RunOptions run = new RunOptions(options, generation, Settings.shard(p), serve, workloadOptions, workload,
                Settings.agreement(p), Settings.memoryBudgetMb(p), PropertyValues.bool(Setting.PROFILE, p), baseline,
                System.getenv("MAVEN_CMD_LINE_ARGS"),
                ProcessHandle.current().info().commandLine().orElse("unknown (the JVM did not report its command line)"), load, null);
        if (servedApart && serve.any() && Setting.TARGET.userValue(p).isPresent()) {
            run = run.servedIn(servingJvm(p, options));
        }
        Pipeline.Outcome outcome = BenchmarkRun.run(run, forks.apply(options), out, System.console() != null);
        RunResult finished = outcome.run();
        out.println("[inferbench] run written to " + outcome.store().runFile());
        if (finished.failedCells() > 0) {
            out.println("[inferbench] " + finished.failedCells() + " cell(s) FAILED; every other cell is in run.json"
                    + (generation == null ? "" : " (generation.failures says why)"));
        }
        if (!finished.failedStages().isEmpty()) {
            out.println("[inferbench] stage(s) that did not finish: " + String.join(", ", finished.failedStages())
                    + " (run.json's stages says why); everything measured is kept");
        }
        out.println(TimeAccount.line(finished.timing()));
        return ExitCode.of(finished);
    }

    /**
     * The JVM that serves a target ({@link ServeApartCommand}): started as a fork JVM is (its options, its environment),
     * with the run's settings.
     */
    private static ServingFork.Jvm servingJvm(Properties p, SweepOptions options) {
        return new ServingFork.Jvm(JvmForkExecutor.javaCommand(options.forkJvms().jvmArgs(),
                MavenLauncher.runFlags(Settings.root(p), p), InferbenchMain.class.getName(), List.of(ServeApartCommand.NAME)),
                options.forkJvms().measuringEnvironment());
    }

    /** The settings without generation's load, which the forward passes' serving must not also run. */
    private static Properties withoutLoad(Properties p) {
        Properties copy = new Properties();
        copy.putAll(p);
        for (Option s : List.of(ServeSetting.RATE, ServeSetting.MAX_WAIT_MS, ServeSetting.SLA_P99_MS)) {
            copy.remove(s.property());
        }
        return copy;
    }

    /**
     * {@code -Dbench.generate=N}: the cells are generations ({@link GenerationKind}); null without it. What does not apply
     * to generation is refused here, before anything runs: {@code -Dbench.kvPairs} without it, and with it serving, real
     * text, a reference, a baseline and shards.
     */
    private static GenerationKind generation(Properties p, GenerationLoadOptions load) {
        if (Setting.GENERATE.userValue(p).isEmpty()) {
            for (Option s : List.of(Setting.KV_PAIRS, Setting.SAMPLING)) {
                if (s.userValue(p).isPresent()) {
                    throw new BenchmarkException("-D" + s.property() + (s == Setting.KV_PAIRS ? " pairs a decoder's cache"
                            : " picks a decoder's tokens") + " for generation, which was not asked for: add "
                            + "-Dbench.generate=N (docs/generation.md), or drop -D" + s.property());
                }
            }
            return null;
        }
        if (Setting.TARGET.userValue(p).isPresent()) {
            throw new BenchmarkException("-Dbench.generate drives a decoder's prefill and steps itself, and a target "
                    + "(-Dbench.target) is your own code: generation is not a target's. Time your generation loop as a "
                    + "target's call without -Dbench.generate, its steps marked as stages (docs/targets.md)");
        }
        for (Option s : List.of(ServeSetting.CONCURRENCY, WorkloadSetting.TEXT, WorkloadSetting.LENGTHS, AgreementSetting.REFERENCE,
                Setting.BASELINE, Setting.SHARD, ServeSetting.SOAK_SECONDS, ServeSetting.ABLATION)) {
            if (s.userValue(p).isPresent()) {
                throw new BenchmarkException("-D" + s.property() + " does not apply to generation "
                        + "(-Dbench.generate): generation measures prefill and decode steps of one sequence batch at a time, "
                        + "and requests under open-loop load with -Dbench.rate; closed-loop clients, real text, soaks, "
                        + "baselines and shards are not part of it (docs/generation.md). Drop one of the two");
            }
        }
        return new GenerationKind(GenerationLoadSettings.newTokens(p)[1], KvPair.parse(Setting.KV_PAIRS.value(p)),
                Sampling.parse(Setting.SAMPLING.value(p)), GenerationLoadSettings.rows(load));
    }
}
