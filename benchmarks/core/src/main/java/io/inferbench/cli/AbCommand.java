package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.compare.AbOptions;
import io.inferbench.engine.UserCode;
import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;
import io.inferbench.pipeline.AbRun;
import io.inferbench.pipeline.Pipeline;
import io.inferbench.precision.AgreementSetting;
import io.inferbench.results.RunResult;
import io.inferbench.runner.DuetCpus;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TimeAccount;
import io.inferbench.serve.ServeSetting;
import io.inferbench.sweep.SweptAxis;
import io.inferbench.workload.WorkloadSetting;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Properties;
import java.util.function.Function;

/**
 * {@code mvn verify -Dbench.ab.baseline=A}: an A/B run ({@link AbRun}). B is the run's own subject, as its settings give
 * it; A is the same settings with {@code -Dbench.model} (or, with a target, {@code -Dbench.classpath}) replaced by
 * {@code -Dbench.ab.baseline}. Both are read and checked as any run's settings are, before anything runs. What an A/B
 * run decides itself (its forks, the re-measurement of departed forks) and what it does not measure (generation,
 * serving, real text, a reference, a stored baseline, shards, the roofline) is refused when given, with exit code 2.
 * The exit code is a run's: 1 when a cell is a regression or failed.
 */
final class AbCommand {
    /** What an A/B run refuses: it decides these itself, or does not measure them. */
    static final List<Option> NOT_IN_AB = List.of(Setting.FORKS, Setting.FORK_DEPARTURE, Setting.GENERATE, Setting.BASELINE,
            Setting.SHARD, ServeSetting.CONCURRENCY, ServeSetting.RATE, ServeSetting.SOAK_SECONDS,
            ServeSetting.ABLATION, WorkloadSetting.TEXT, WorkloadSetting.LENGTHS, AgreementSetting.REFERENCE);

    private AbCommand() {
    }

    static ExitCode run(Properties p, AbOptions ab, PrintStream out, Function<SweepOptions, ForkExecutor> forks) throws Exception {
        for (Option s : NOT_IN_AB) {
            if (s.userValue(p).isPresent()) {
                throw new BenchmarkException("-D" + s.property() + " does not apply to an A/B run (-Dbench.ab.baseline): "
                        + (s == Setting.FORKS || s == Setting.FORK_DEPARTURE
                        ? "it measures pairs of forks until every cell is decided (-Dbench.ab.maxPairs, -Dbench.ab.maxMinutes)"
                        : "it measures the sweep's forward passes of A and B, pair by pair, and nothing after them")
                        + ". Drop -D" + s.property() + ", or run it without -Dbench.ab.baseline (docs/statistics-and-compare.md)");
            }
        }
        if (Setting.PROFILE.userValue(p).isPresent() && PropertyValues.bool(Setting.PROFILE, p)) {
            throw new BenchmarkException("-Dbench.profile=true places a run's cells on the roofline, and an A/B run measures "
                    + "the change between two subjects and nothing after it: drop -Dbench.profile, or profile each in a run "
                    + "of its own");
        }
        boolean target = Setting.TARGET.userValue(p).isPresent();
        Properties pb = copy(p);
        DuetCpus duet = null;
        if (ab.mode() == AbOptions.Mode.DUET) {
            duet = DuetCpus.ofThisProcess();
            if (Setting.THREADS.userValue(p).isEmpty()) {
                pb.setProperty(Setting.THREADS.property(), Integer.toString(duet.halfSize()));
            } else if (PropertyValues.positiveInt(Setting.THREADS, p) > duet.halfSize()) {
                throw new BenchmarkException("-Dbench.threads=" + Setting.THREADS.value(p) + " gives each fork more threads "
                        + "than its half of the cores in a duet (" + duet.halfSize() + "): give at most "
                        + duet.halfSize() + ", leave it out (a duet gives each fork " + duet.halfSize() + "), or use "
                        + "-Dbench.ab.mode=forks");
            }
        }
        pb.setProperty(Setting.FORKS.property(), Integer.toString(ab.maxPairs()));
        pb.setProperty(Setting.FORK_DEPARTURE.property(), "off");
        pb.setProperty(Setting.PROFILE.property(), "false");
        if (!target && PropertyValues.names(Setting.MODEL, pb).size() != 1) {
            throw new BenchmarkException("an A/B run compares one model with one: give B's in -Dbench.model and A's in "
                    + "-Dbench.ab.baseline; got " + PropertyValues.names(Setting.MODEL, pb));
        }
        if (!target && ab.baseline().contains(",")) {
            throw new BenchmarkException("-Dbench.ab.baseline is one model (A's), not a list: got " + ab.baseline());
        }
        Properties pa = copy(pb);
        pa.setProperty(target ? Setting.CLASSPATH.property() : Setting.MODEL.property(), ab.baseline());
        boolean seqGiven = Setting.SEQ.userValue(p).isPresent();
        SweepOptions b = SweptAxis.bind(Settings.sweep(pb), seqGiven, false, out);
        SweepOptions a;
        try {
            a = SweptAxis.bind(Settings.sweep(pa), seqGiven, false, new PrintStream(OutputStream.nullOutputStream()));
        } catch (BenchmarkException e) {
            throw target ? new BenchmarkException("A (-Dbench.ab.baseline=" + ab.baseline() + "): "
                    + e.getMessage().replace("-D" + Setting.CLASSPATH.property(), "-D" + Setting.AB_BASELINE_PROPERTY), e)
                    : baselineRefused(ab, pb, b, e);
        }
        if (target && ab.mode() == AbOptions.Mode.PASSES) {
            String why = UserCode.pair(a.engines().userCode(), b.engines().userCode()).cannotShare();
            if (why != null) {
                out.println("[inferbench] A/B: forks, not passes: " + why + "; A's build and B's run in fork JVMs of their "
                        + "own, one after the other (docs/statistics-and-compare.md)");
                ab = ab.withMode(AbOptions.Mode.FORKS);
            }
        }
        Pipeline.Outcome outcome;
        try {
            outcome = AbRun.run(options(b, a, ab, duet), forks.apply(b), out, System.console() != null);
        } catch (BenchmarkException e) {
            String why = settingsDiffer(e);
            if (ab.mode() != AbOptions.Mode.PASSES || why == null) {
                throw e;
            }
            // Found by the preflight, which opens both builds in one JVM: nothing was measured or written yet.
            out.println("[inferbench] A/B: forks, not passes: " + why + "; A's build and B's run in fork JVMs of their own, "
                    + "one after the other (docs/statistics-and-compare.md)");
            outcome = AbRun.run(options(b, a, ab.withMode(AbOptions.Mode.FORKS), duet), forks.apply(b), out,
                    System.console() != null);
        }
        RunResult finished = outcome.run();
        out.println("[inferbench] run written to " + outcome.store().runFile());
        if (finished.failedCells() > 0) {
            out.println("[inferbench] " + finished.failedCells() + " of B's cell(s) FAILED; ab.md says which, and A's "
                    + "results are kept");
        }
        if (!finished.failedStages().isEmpty()) {
            out.println("[inferbench] stage(s) that did not finish: " + String.join(", ", finished.failedStages())
                    + " (run.json's stages says why); everything measured is kept");
        }
        out.println(TimeAccount.line(finished.timing()));
        return ExitCode.of(finished);
    }

    private static AbRun.Options options(SweepOptions b, SweepOptions a, AbOptions ab, DuetCpus duet) {
        return new AbRun.Options(b, a, ab, System.getenv("MAVEN_CMD_LINE_ARGS"),
                ProcessHandle.current().info().commandLine().orElse("unknown (the JVM did not report its command line)"), duet);
    }

    /**
     * The settings two builds change differently when they open, as the preflight refused them ({@link
     * UserCode#SETTINGS_DIFFER}), in words: {@code the two builds change ... (system property x: ...)}; null for any
     * other refusal.
     */
    static String settingsDiffer(BenchmarkException e) {
        String message = String.valueOf(e.getMessage());
        int at = message.indexOf("the two builds " + UserCode.SETTINGS_DIFFER);
        if (at < 0) {
            return null;
        }
        int end = message.indexOf(", and in one JVM", at);
        return message.substring(at, end < 0 ? message.length() : end);
    }

    /**
     * Why A's model cannot be measured at B's settings, naming both models' inputs when they differ: the fix A's own
     * message gives (drop -Dbench.seq, say) would break B, and what is wrong is that they are not two versions of one
     * model.
     */
    private static BenchmarkException baselineRefused(AbOptions ab, Properties pb, SweepOptions b, BenchmarkException e) {
        List<String> inputsA;
        List<String> inputsB;
        try {
            inputsA = SweptAxis.describeInputs(b, ab.baseline());
            inputsB = SweptAxis.describeInputs(b, PropertyValues.names(Setting.MODEL, pb).get(0));
        } catch (RuntimeException unreadable) {
            e.addSuppressed(unreadable);
            return new BenchmarkException("A (-Dbench.ab.baseline=" + ab.baseline() + "): " + e.getMessage(), e);
        }
        if (inputsA.isEmpty() || inputsA.equals(inputsB)) {
            return new BenchmarkException("A (-Dbench.ab.baseline=" + ab.baseline() + "): " + e.getMessage(), e);
        }
        List<String> onlyA = inputsA.stream().filter(i -> !inputsB.contains(i)).toList();
        List<String> onlyB = inputsB.stream().filter(i -> !inputsA.contains(i)).toList();
        return new BenchmarkException("A (-Dbench.ab.baseline=" + ab.baseline() + ") and B (-Dbench.model="
                + PropertyValues.names(Setting.MODEL, pb).get(0) + ") take different inputs: A's " + onlyA + " where B has "
                + onlyB + ". Their cells would time different work, so they cannot be compared in one run; A/B compares two "
                + "versions of one model (a re-export, a quantized copy). A alone at B's settings: " + e.getMessage(), e);
    }

    private static Properties copy(Properties p) {
        Properties copy = new Properties();
        copy.putAll(p);
        return copy;
    }
}
