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
 * Reads the user's properties into validated options, each through its {@link Setting} (name and default), and
 * refuses what cannot work before anything runs: unknown property names, non-numbers, impossible sizes, models no
 * chosen engine loads. This is the only class that reads inferbench's properties.
 */
public final class Settings {
    /** Where relative default paths ({@code results}, {@code benchmarks/target/...}) are resolved from. */
    public static final String ROOT_PROPERTY = "inferbench.root";

    private Settings() {
    }

    /**
     * Refuses any {@code bench.*} or {@code compare.*} property that is neither a {@link Setting} nor an engine's own,
     * naming the closest known one: a typo such as {@code -Dbench.batches=1,2} must not silently run the default.
     */
    public static void checkKnown(Properties p) {
        List<String> unknown = new TreeSet<>(p.stringPropertyNames()).stream()
                .filter(name -> Setting.owned(name) || misspeltPrefix(name) != null)
                .filter(name -> !knownProperties().contains(name))
                .filter(name -> !name.startsWith(Setting.TARGET_PROPERTY_PREFIX)).toList();
        if (unknown.isEmpty()) {
            return;
        }
        List<String> problems = new ArrayList<>();
        for (String name : unknown) {
            String meant = Setting.owned(name) ? closest(name) : misspeltPrefix(name);
            problems.add("-D" + name + " (did you mean -D" + meant + "?)");
        }
        throw new BenchmarkException("Unknown propert" + (unknown.size() == 1 ? "y " : "ies ") + String.join(", ", problems)
                + ": inferbench would ignore " + (unknown.size() == 1 ? "it" : "them") + " and run its default instead. "
                + "Fix the name; every property is listed in README.md under Options");
    }

    /**
     * The setting a property names with its prefix misspelt ({@code bnech.batch}, {@code bech.seq}): a prefix within two
     * edits of {@code bench} or {@code compare} and the rest exactly a setting's. Null for any other property: Maven's
     * and the JVM's own are never taken for a typo.
     */
    static String misspeltPrefix(String name) {
        int dot = name.indexOf('.');
        if (dot <= 0 || Setting.owned(name)) {
            return null;
        }
        String prefix = name.substring(0, dot);
        String rest = name.substring(dot);
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        return knownProperties().stream()
                .filter(known -> known.endsWith(rest) && known.length() > rest.length())
                .filter(known -> distance.apply(prefix, known.substring(0, known.length() - rest.length())) <= 2)
                .findFirst().orElse(null);
    }

    /**
     * Every property inferbench reads, each owned by the capability that reads it: the run's own ({@link Setting}),
     * serving's, a workload's, the precision check's, the regime rules', {@code compare}'s, the commands' and, last, each
     * engine's on the class path ({@link Engines#settings()}). docs/options.md's table is these rows in this order.
     */
    public static List<Option> all() {
        List<Option> all = new ArrayList<>();
        all.addAll(Arrays.asList(Setting.values()));
        all.addAll(Arrays.asList(ServeSetting.values()));
        all.addAll(Arrays.asList(WorkloadSetting.values()));
        all.addAll(Arrays.asList(AgreementSetting.values()));
        all.addAll(Arrays.asList(RegimeSetting.values()));
        all.addAll(Arrays.asList(CompareSetting.values()));
        all.addAll(Arrays.asList(io.inferbench.compare.AbSetting.values()));
        all.addAll(Arrays.asList(CommandSetting.values()));
        all.addAll(Engines.settings());
        return List.copyOf(all);
    }

    static List<String> knownProperties() {
        return all().stream().map(Option::property).toList();
    }

    static String closest(String name) {
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        return knownProperties().stream()
                .min(Comparator.comparingInt((String known) -> distance.apply(name, known)).thenComparing(known -> known))
                .orElseThrow();
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

    /**
     * On CUDA, the default engines are those that can run there: an engine whose GPU support is optional here leaves them
     * (removed from {@code backends}) when it cannot reach the GPU, and the returned line says why and how to enable it
     * ({@link io.inferbench.engine.EngineProvider#leftOutByDefault}). An engine that must run there stays: without its
     * GPU build or CUDA's libraries its preflight refuses the run, naming them. Engines the user names are never
     * removed: an explicit {@code -Dbench.backend=NAME -Dbench.device=cuda} is refused by the preflight with the same fix.
     */
    private static List<String> defaultEnginesOffDevice(Properties p, List<String> backends, List<String> devices, Path root) {
        List<Device> parsed = devices.stream().map(Device::parse).toList();
        if (Setting.BACKEND.userValue(p).isPresent() || parsed.stream().noneMatch(Device::isCuda)) {
            return List.of();
        }
        List<String> leftOut = new ArrayList<>();
        for (String backend : List.copyOf(backends)) {
            String why = Engines.provider(backend).leftOutByDefault(parsed, path(p, Setting.NATIVE_CACHE, root));
            if (why != null) {
                backends.remove(backend);
                leftOut.add(backend + " on " + String.join(",", devices) + " (" + why + ")");
            }
        }
        return List.copyOf(leftOut);
    }

    public static SweepOptions sweep(Properties p) {
        checkKnown(p);
        Path root = root(p);
        List<String> targets = TargetSettings.targets(p);
        UserCode userCode = TargetSettings.userCode(p, targets);
        List<String> backends = new ArrayList<>(targets.isEmpty() || Setting.BACKEND.userValue(p).isPresent()
                ? PropertyValues.names(Setting.BACKEND, p) : List.of());
        backends.forEach(Engines::checkName);
        List<String> devices = PropertyValues.names(Setting.DEVICE, p).stream().map(d -> Device.parse(d).toString()).distinct().toList();
        List<String> leftOut = defaultEnginesOffDevice(p, backends, devices, root);
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
                new SweepOptions.Plan(backends, devices, models, seqLens, bucketsFile, batches, reference(p, backends, models), leftOut),
                new SweepOptions.Rules(measurePolicy(p), PropertyValues.positiveInt(Setting.FORKS, p), PropertyValues.parseLong(Setting.SEED, p),
                        forkDeparture(p), regime(p, null), callTimeoutSeconds(p)),
                forkJvms(p),
                new SweepOptions.Engines(intraOpThreads, PropertyValues.positiveInt(Setting.INTEROP_THREADS, p),
                        PropertyValues.bool(Setting.ALLOW_CPU_FALLBACK, p), path(p, Setting.CACHE, root), path(p, Setting.NATIVE_CACHE, root),
                        nvidiaSmi(p), inputOptions(p, root), userCode),
                new SweepOptions.Output(path(p, Setting.RESULTS, root), PropertyValues.bool(Setting.VERBOSE, p),
                        Setting.HOST_LABEL.userValue(p).map(String::trim).orElse(null),
                        p.getProperty(SweepOptions.Output.BESIDE_PROPERTY)));
    }

    /**
     * How the fork JVMs run, with the environment they would inherit read once, now: what the sweep JVM that Maven
     * starts also needs, to run with the same allocator and kernels as the forks ({@link MavenLauncher}).
     */
    static SweepOptions.ForkJvms forkJvms(Properties p) {
        return new SweepOptions.ForkJvms(option(Isolation.class, Setting.ISOLATION, p), cellsPerJvm(p), Setting.JVM_ARGS.value(p),
                option(JitCompilation.class, Setting.JIT_COMPILATION, p), option(MallocPolicy.class, Setting.MALLOC, p),
                Engines.measuringEnvironment(p, System.getenv()), System.getenv());
    }

    private static <E extends Enum<E> & JvmOption> E option(Class<E> type, Option setting, Properties p) {
        return JvmOption.parse(type, setting.property(), setting.value(p), setting.meaning());
    }

    /** {@code bench.cellsPerJvm}: a positive count, or null for {@code all}. */
    static Integer cellsPerJvm(Properties p) {
        String value = Setting.CELLS_PER_JVM.value(p).trim();
        if (value.equalsIgnoreCase("all")) {
            return null;
        }
        try {
            int cells = Integer.parseInt(value);
            if (cells >= 1) {
                return cells;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new BenchmarkException("-D" + Setting.CELLS_PER_JVM.property() + " is the most cells one fork JVM runs, a "
                + "whole number of 1 or more (8: a fresh JVM every 8 cells of a round), or `all`; got " + value);
    }

    /** {@code bench.callTimeoutSeconds}: a positive number of seconds, or null for {@code auto}. */
    static Double callTimeoutSeconds(Properties p) {
        String value = Setting.CALL_TIMEOUT_SECONDS.value(p).trim();
        if (value.equalsIgnoreCase("auto")) {
            return null;
        }
        double seconds = PropertyValues.parseDouble(Setting.CALL_TIMEOUT_SECONDS, p);
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new BenchmarkException("-D" + Setting.CALL_TIMEOUT_SECONDS.property() + " is the longest one call may run, "
                    + "in seconds above 0 (300: a pass that has not returned after 5 minutes fails its cell), or `auto`; got "
                    + value);
        }
        return seconds;
    }

    /** {@code bench.forkDeparture}: a factor above 1, or null for {@code off}. */
    static Double forkDeparture(Properties p) {
        String value = Setting.FORK_DEPARTURE.value(p).trim();
        if (value.equalsIgnoreCase("off")) {
            return null;
        }
        double factor = PropertyValues.parseDouble(Setting.FORK_DEPARTURE, p);
        if (!(factor > 1) || Double.isInfinite(factor)) {
            throw new BenchmarkException("-D" + Setting.FORK_DEPARTURE.property() + " is a factor above 1 (1.5: a fork 1.5x "
                    + "slower or faster than its siblings' median is measured again) or `off`; got " + value);
        }
        return factor;
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

    /** {@code bench.nvidiaSmi}: a path the user gave must be an executable file; checked before anything runs. */
    /** {@code bench.seqAxis}, {@code bench.dims} and {@code bench.inputs}; the spec file must exist now. */
    static InputOptions inputOptions(Properties p, Path root) {
        String seqAxis = Setting.SEQ_AXIS.userValue(p).map(String::trim).filter(v -> !v.isEmpty()).orElse(null);
        Map<String, Long> dims = PropertyValues.namedSizes(Setting.DIMS, p);
        Path spec = null;
        if (Setting.INPUTS.userValue(p).filter(v -> !v.isBlank()).isPresent()) {
            spec = path(p, Setting.INPUTS, root);
            if (!java.nio.file.Files.isRegularFile(spec) || !java.nio.file.Files.isReadable(spec)) {
                throw new BenchmarkException("The input spec " + spec + " (-Dbench.inputs) is not a readable file; give "
                        + "the path to a JSON input spec (docs/models.md)");
            }
        }
        return new InputOptions(seqAxis, dims, spec);
    }

    static String nvidiaSmi(Properties p) {
        java.util.Optional<String> given = Setting.NVIDIA_SMI.userValue(p);
        given.ifPresent(io.inferbench.probe.GpuSampler::checkExecutable);
        return given.orElse(io.inferbench.probe.GpuSampler.DEFAULT_BINARY);
    }

    /** The percentiles {@code bench.resolve} accepts, and the passes per fork each needs. */
    static final java.util.Map<String, Integer> RESOLVABLE = java.util.Map.of("p50", 2, "p99", 100, "p99.9", 1000);

    /**
     * The warm-up and stop rules: until steady and until precise, unless {@code bench.warmup} or
     * {@code bench.iterations} fix a count.
     */
    static MeasurePolicy measurePolicy(Properties p) {
        Integer fixedWarmup = Setting.WARMUP.userValue(p).isPresent() ? PropertyValues.nonNegativeInt(Setting.WARMUP, p) : null;
        Integer fixedPasses = Setting.ITERATIONS.userValue(p).isPresent() ? PropertyValues.positiveInt(Setting.ITERATIONS, p) : null;
        double tolerance = PropertyValues.percent(Setting.WARMUP_TOLERANCE, p, 0, 100);
        double precision = PropertyValues.percent(Setting.PRECISION, p, 0, 100);
        if (precision <= 0) {
            throw new BenchmarkException("-D" + Setting.PRECISION.property() + " must be above 0 percent, got "
                    + Setting.PRECISION.value(p) + ": no finite number of passes gives an interval of width 0");
        }
        String resolve = Setting.RESOLVE.value(p);
        Integer minPasses = RESOLVABLE.get(resolve);
        if (minPasses == null) {
            throw new BenchmarkException("-D" + Setting.RESOLVE.property() + "=" + resolve + " is not a percentile a fork can be "
                    + "asked to resolve: expected one of " + new TreeSet<>(RESOLVABLE.keySet()));
        }
        long warmupCapMs = PropertyValues.millis(Setting.WARMUP_CAP_SECONDS, p);
        long measureCapMs = PropertyValues.millis(Setting.MEASURE_CAP_SECONDS, p);
        WarmupPolicy warmup = fixedWarmup != null
                ? new WarmupPolicy(fixedWarmup, tolerance, 0, 1, 0, 0, warmupCapMs)
                : WarmupPolicy.untilSteady(tolerance, warmupCapMs);
        StopPolicy stop = new StopPolicy(fixedPasses, precision, MEASURE_CONFIDENCE, minPasses, MIN_MEASURE_MS, measureCapMs);
        return new MeasurePolicy(warmup, stop);
    }

    /** The confidence of the p50 interval the stop rule tightens. */
    static final double MEASURE_CONFIDENCE = 0.95;
    /**
     * The shortest measurement of a cell in a fork: long enough to sample the machine's periodic disturbances (scheduler
     * ticks, timer interrupts, young collections, the other tenants of a shared host), and to resolve p99 in every fork
     * of a cell whose pass is under 10 ms. perf_analyzer measures in 5 s windows. A second per cell and fork keeps a
     * default sweep of 144 cell forks near three minutes on 2 cores, with more than three quarters of its wall time in
     * measured passes: the warm-up, first passes and JVM starts cost about 30 s whatever this is, so a shorter minimum
     * buys little time and lowers the share that measures (0.75 s gave 71-73%, 1 s 76-79%).
     */
    static final long MIN_MEASURE_MS = 1000;


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


    /**
     * {@code bench.reference}, checked before anything runs: it must be one of the run's models, there must be another
     * to compare with it, and every engine that runs one of the others must load the reference too (pairs are formed
     * per engine and device, on identical inputs).
     */
    static String reference(Properties p, List<String> backends, List<String> models) {
        Optional<String> value = AgreementSetting.REFERENCE.userValue(p);
        if (value.isEmpty()) {
            return null;
        }
        String reference = value.get();
        if (Setting.TARGET.userValue(p).isPresent()) {
            throw new BenchmarkException("-Dbench.reference compares models' outputs, and a target's results are its own "
                    + "objects, not outputs the harness can read: drop -Dbench.reference, or run it with the engines alone");
        }
        ModelSource referenceSource = ModelSource.parse(reference);
        String match = models.stream().filter(m -> m.equals(reference) || sameFile(m, referenceSource)).findFirst()
                .orElseThrow(() -> new BenchmarkException("-Dbench.reference=" + reference + " is not one of the run's models "
                        + models + ": the reference is measured in the same run as the models it is compared with. Add it to "
                        + "-Dbench.model, e.g. -Dbench.model=" + String.join(",", models) + "," + reference));
        if (models.size() < 2) {
            throw new BenchmarkException("-Dbench.reference=" + reference + " needs another model to compare with: add one to "
                    + "-Dbench.model, e.g. -Dbench.model=" + reference + "," + reference.replaceFirst("^(tiny|base)$", "$1-int8"));
        }
        for (String backend : backends) {
            String why = Engines.whyNot(backend, referenceSource);
            if (why == null) {
                continue;
            }
            List<String> others = models.stream().filter(m -> !m.equals(match) && Engines.canLoad(backend, ModelSource.parse(m)))
                    .toList();
            if (!others.isEmpty()) {
                throw new BenchmarkException("The reference " + reference + " cannot be loaded by " + backend + " (" + why
                        + "), which runs " + others + " that would be compared with it. Choose a reference every engine in "
                        + "-Dbench.backend loads, or drop " + backend + " from -Dbench.backend");
            }
        }
        return match;
    }

    /** {@code bench.agreement.*}: how outputs are compared with the reference's ({@link AgreementSetting}). */
    public static AgreementOptions agreement(Properties p) {
        return AgreementSetting.read(p);
    }

    private static boolean sameFile(String model, ModelSource reference) {
        return reference.file() != null && reference.file().equals(ModelSource.parse(model).file());
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
