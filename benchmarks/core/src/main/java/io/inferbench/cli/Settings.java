package io.inferbench.cli;

import io.inferbench.workload.WorkloadSetting;
import io.inferbench.serve.ServeSetting;
import io.inferbench.analysis.RegimeSetting;
import io.inferbench.compare.CompareSetting;
import io.inferbench.precision.AgreementSetting;
import io.inferbench.BenchmarkException;
import io.inferbench.option.Option;
import io.inferbench.option.PropertyValues;
import io.inferbench.analysis.RegimeThresholds;
import io.inferbench.compare.CompareOptions;
import io.inferbench.engine.Device;
import io.inferbench.engine.Engines;
import io.inferbench.engine.UserCode;
import io.inferbench.inputs.InputOptions;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;
import io.inferbench.model.ModelSource;
import io.inferbench.precision.AgreementOptions;
import io.inferbench.runner.Isolation;
import io.inferbench.runner.JitCompilation;
import io.inferbench.runner.JvmOption;
import io.inferbench.runner.MallocPolicy;
import io.inferbench.runner.SweepOptions;
import io.inferbench.serve.ServeOptions;
import io.inferbench.sweep.BucketFile;
import io.inferbench.workload.WorkloadOptions;
import org.apache.commons.text.similarity.LevenshteinDistance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Reads the user's properties into the run's validated options, and refuses what cannot work before anything runs:
 * unknown property names ({@link PropertyNames}), non-numbers, impossible sizes, models no chosen engine loads. The
 * plan's axes are read here; the fork JVMs' settings by {@link ForkSettings}, the measurement's by
 * {@link MeasureSettings}, the rest of the plan's by {@link PlanSettings}, and each capability's own (serving, workload,
 * precision, regime, compare, A/B) by that capability's {@code *Setting}.
 */
public final class Settings {
    /** Where relative default paths ({@code results}, {@code benchmarks/target/...}) are resolved from. */
    public static final String ROOT_PROPERTY = "inferbench.root";

    private Settings() {
    }

    /** The repository root for relative default paths: {@value #ROOT_PROPERTY} when set, else the working folder. */
    public static Path root(Properties p) {
        String root = p.getProperty(ROOT_PROPERTY, "");
        return (root.isBlank() ? Path.of("") : Path.of(root)).toAbsolutePath().normalize();
    }

    /**
     * A path setting: the user's value relative to the working folder, or the default relative to {@code root}.
     */
    static Path path(Properties p, Option setting, Path root) {
        return setting.userValue(p).map(Path::of).orElse(root.resolve(setting.defaultValue())).toAbsolutePath().normalize();
    }

    public static SweepOptions sweep(Properties p) {
        PropertyNames.checkKnown(p);
        Path root = root(p);
        List<String> targets = TargetSettings.targets(p);
        UserCode userCode = TargetSettings.userCode(p, targets);
        List<String> backends = new ArrayList<>(targets.isEmpty() || Setting.BACKEND.userValue(p).isPresent()
                ? PropertyValues.names(Setting.BACKEND, p) : List.of());
        backends.forEach(Engines::checkName);
        List<String> devices = PropertyValues.names(Setting.DEVICE, p).stream().map(d -> Device.parse(d).toString()).distinct().toList();
        List<String> leftOut = PlanSettings.defaultEnginesOffDevice(p, backends, devices, root);
        backends.addAll(targets);
        List<String> models = targets.isEmpty() || Setting.MODEL.userValue(p).isPresent() ? PropertyValues.names(Setting.MODEL, p)
                : List.of(ModelSource.None.NAME);
        boolean generating = Setting.GENERATE.userValue(p).isPresent();
        for (String model : models) {
            ModelSource source = ModelSource.parse(model);
            java.util.function.Function<String, String> whyNot = b -> generating
                    ? Engines.capabilities(b).whyNotGenerate(b, source) : Engines.whyNot(b, source);
            if (backends.stream().noneMatch(backend -> whyNot.apply(backend) == null)) {
                throw new BenchmarkException("None of the backends " + backends + " loads " + model + ": "
                        + String.join("; ", backends.stream().map(whyNot).toList()) + ". Add one that "
                        + "does to -Dbench.backend: " + String.join("; ", Engines.names().stream().map(b -> b + " loads "
                        + Engines.capabilities(b).loads()).toList()));
            }
        }
        String bucketsFile = null;
        List<Integer> seqLens;
        if (Setting.SEQ.userValue(p).isPresent()) {
            seqLens = PropertyValues.positiveInts(Setting.SEQ, p);
        } else {
            Path buckets = path(p, Setting.BUCKETS, root);
            bucketsFile = buckets.toString();
            seqLens = BucketFile.read(buckets);
        }
        List<Integer> batches = PropertyValues.positiveInts(Setting.BATCH, p);
        for (int seq : seqLens) {
            for (int batch : batches) {
                if ((long) seq * batch > SweepOptions.MAX_TOKENS_PER_BATCH) {
                    throw new BenchmarkException("batch " + batch + " x seqLen " + seq + " = " + ((long) seq * batch)
                            + " tokens is more than one input tensor can hold (" + SweepOptions.MAX_TOKENS_PER_BATCH
                            + "); lower -Dbench.batch or -Dbench.seq");
                }
            }
        }
        int intraOpThreads = Setting.THREADS.userValue(p).isPresent() ? PropertyValues.positiveInt(Setting.THREADS, p)
                : Runtime.getRuntime().availableProcessors();
        return new SweepOptions(
                new SweepOptions.Plan(backends, devices, models, seqLens, bucketsFile, batches, PlanSettings.reference(p, backends, models), leftOut),
                new SweepOptions.Rules(MeasureSettings.measurePolicy(p), PropertyValues.positiveInt(Setting.FORKS, p), PropertyValues.parseLong(Setting.SEED, p),
                        ForkSettings.forkDeparture(p), regime(p, null), ForkSettings.callTimeoutSeconds(p)),
                ForkSettings.forkJvms(p),
                new SweepOptions.Engines(intraOpThreads, PropertyValues.positiveInt(Setting.INTEROP_THREADS, p),
                        PropertyValues.bool(Setting.ALLOW_CPU_FALLBACK, p), path(p, Setting.CACHE, root), path(p, Setting.NATIVE_CACHE, root),
                        PlanSettings.nvidiaSmi(p), PlanSettings.inputOptions(p, root), userCode),
                new SweepOptions.Output(path(p, Setting.RESULTS, root), PropertyValues.bool(Setting.VERBOSE, p),
                        Setting.HOST_LABEL.userValue(p).map(String::trim).orElse(null),
                        p.getProperty(SweepOptions.Output.BESIDE_PROPERTY)));
    }

    /** Settings a shard refuses: each would measure or decide on the shard's part alone, not on the plan. */
    static final List<Option> NOT_PER_SHARD = List.of(ServeSetting.CONCURRENCY, ServeSetting.RATE, ServeSetting.MAX_WAIT_MS, ServeSetting.SLA_P99_MS,
            Setting.BASELINE, AgreementSetting.REFERENCE, WorkloadSetting.LENGTHS, WorkloadSetting.TEXT);

    /**
     * {@code bench.shard}: its part of the plan, or null. A shard refuses what would make the parts incomparable: no
     * {@code bench.threads} (each machine would use its own processor count), and the steps after the sweep that need the
     * whole plan (serving, workload, precision agreement, a baseline): run them on the merged run or unsharded.
     */
    public static io.inferbench.shard.Shard shard(Properties p) {
        java.util.Optional<String> given = Setting.SHARD.userValue(p);
        if (given.isEmpty()) {
            return null;
        }
        io.inferbench.shard.Shard shard = io.inferbench.shard.Shard.parse(given.get());
        if (Setting.THREADS.userValue(p).isEmpty()) {
            throw new BenchmarkException("-Dbench.shard=" + shard.label() + " needs -Dbench.threads: without it each shard uses "
                    + "its own machine's processor count, and the parts would not be measured the same way; give e.g. "
                    + "-Dbench.threads=2 to every shard");
        }
        for (Option s : NOT_PER_SHARD) {
            if (s.userValue(p).isPresent()) {
                throw new BenchmarkException("-D" + s.property() + " cannot be used with -Dbench.shard: it needs the whole plan, "
                        + "not one part. Run the shards without it, merge them (exec:java@merge), then run it unsharded");
            }
        }
        return shard;
    }

    /** {@code bench.memoryBudgetMb}: a positive number of MiB, or null when not given. Checked before anything runs. */
    public static Double memoryBudgetMb(Properties p) {
        if (Setting.MEMORY_BUDGET_MB.userValue(p).isEmpty()) {
            return null;
        }
        double mb = PropertyValues.parseDouble(Setting.MEMORY_BUDGET_MB, p);
        if (!(mb > 0) || Double.isInfinite(mb)) {
            throw new BenchmarkException("-D" + Setting.MEMORY_BUDGET_MB.property() + " is a memory budget in MiB above 0, "
                    + "e.g. 16384 for 16 GiB; got " + Setting.MEMORY_BUDGET_MB.value(p));
        }
        return mb;
    }

    /** {@code bench.agreement.*}: how outputs are compared with the reference's ({@link AgreementSetting}). */
    public static AgreementOptions agreement(Properties p) {
        return AgreementSetting.read(p);
    }

    /**
     * What to serve after the sweep. A request carries one sample, or {@code bench.batch} samples when exactly one batch
     * size is given; it is padded to {@code bench.serveSeq} (the sweep's smallest sequence length by default).
     */
    public static ServeOptions serve(Properties p, SweepOptions sweep) {
        int samples = Setting.BATCH.userValue(p).isPresent() && sweep.plan().batches().size() == 1 ? sweep.plan().batches().get(0) : 1;
        return ServeSetting.read(p, java.util.Collections.min(sweep.plan().seqLens()), samples, sweep.rules().seed());
    }

    /** Which real inputs to analyse and stream after the sweep, if any ({@link WorkloadSetting}). */
    public static WorkloadOptions workload(Properties p) {
        return WorkloadSetting.read(p);
    }

    /** Regime thresholds ({@link RegimeSetting#read}). */
    public static RegimeThresholds regime(Properties p, RegimeThresholds base) {
        return RegimeSetting.read(p, base);
    }

    /** The documented default thresholds, with nothing set. */
    public static RegimeThresholds defaultRegime() {
        return RegimeSetting.defaults();
    }

    public static CompareOptions compare(Properties p) {
        return CompareSetting.read(p);
    }
}
