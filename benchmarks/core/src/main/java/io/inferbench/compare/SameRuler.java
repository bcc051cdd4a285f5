package io.inferbench.compare;

import io.inferbench.results.CellResult;
import io.inferbench.results.EnvironmentInfo;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Whether two runs were measured the same way. Differences that change what is measured make the runs
 * <em>incomparable</em>: another GPU model, another CPU model for CPU cells, a model of the same name with
 * another SHA-256, or a run with one fork per cell (which cannot show run-to-run noise, so no interval from it
 * can be trusted). Everything else that differs (driver, engine and library versions, JVM, providers, threads,
 * counts, forks) is listed, so a reader can judge it.
 */
public final class SameRuler {
    /** The findings: {@code incomparable} stops a comparison unless overridden; {@code differences} are listed. */
    public record Check(List<String> incomparable, List<String> differences) {
        public boolean comparable() {
            return incomparable.isEmpty();
        }
    }

    private SameRuler() {
    }

    /**
     * A user's target of one class name in both runs, loaded from code with another SHA-256: the code is what was timed,
     * so other code is another ruler, unless the comparison is of that very change ({@code -Dcompare.codeChange=true}, a
     * pull request's gate), when it is listed as the change under test. Its settings differing are listed either way.
     */
    static void targetsApart(RunResult baseline, RunResult candidate, boolean codeChange, List<String> incomparable,
                             List<String> differences) {
        List<RunConfig.TargetCode> base = baseline.config().engines().targets() == null ? List.of()
                : baseline.config().engines().targets();
        List<RunConfig.TargetCode> cand = candidate.config().engines().targets() == null ? List.of()
                : candidate.config().engines().targets();
        for (RunConfig.TargetCode b : base) {
            for (RunConfig.TargetCode c : cand) {
                if (!b.className().equals(c.className())) {
                    continue;
                }
                if (!b.sha256().equals(c.sha256())) {
                    String text = "the code of target " + b.className() + " differs: SHA-256 " + b.sha256().substring(0, 12)
                            + " in the baseline, " + c.sha256().substring(0, 12) + " in the candidate";
                    if (codeChange) {
                        differences.add(text + " (the change under test, -Dcompare.codeChange=true)");
                    } else {
                        incomparable.add(text + ": other code is another ruler; when the change in code is what this "
                                + "comparison measures (a pull request's), say so with -Dcompare.codeChange=true");
                    }
                }
                differ(differences, "settings of target " + b.className(), b.properties(), c.properties());
            }
        }
    }

    /** Calibrated peaks further apart than this (as a share of the lower) make two runs different rulers. */
    public static final double MAX_PEAK_DIFFERENCE = 0.15;

    /**
     * The calibrated peaks both runs hold for the same engine, device and threads, where they differ by more than
     * {@link #MAX_PEAK_DIFFERENCE}: the same name can hide a machine several times faster, and the peaks say so.
     */
    static List<String> peaksApart(RunResult baseline, RunResult candidate) {
        return peaksApart(baseline, candidate, new ArrayList<>());
    }

    /**
     * As above; a pair that is one machine's calibration and its correction (one run's re-check beat the cache the other
     * run wrote, and calibrated again: {@link #oneMachine}) is not another ruler, and goes to {@code differences} instead.
     */
    static List<String> peaksApart(RunResult baseline, RunResult candidate, List<String> differences) {
        List<String> apart = new ArrayList<>();
        if (baseline.profile() == null || candidate.profile() == null || baseline.profile().calibrations() == null
                || candidate.profile().calibrations() == null) {
            return apart;
        }
        for (var bp : baseline.profile().calibrations()) {
            for (var cp : candidate.profile().calibrations()) {
                if (!bp.backend().equals(cp.backend()) || !bp.device().equals(cp.device()) || bp.intraOpThreads() != cp.intraOpThreads()) {
                    continue;
                }
                String where = bp.backend() + " on " + bp.device() + " with " + bp.intraOpThreads() + " thread(s)";
                if (oneMachine(bp, cp)) {
                    if (bp.peakFlopsPerSecond() != cp.peakFlopsPerSecond()) {
                        differences.add(io.inferbench.Text.f("calibrated FLOP peak of %s: %.1f GFLOP/s in the baseline, %.1f in the "
                                + "candidate, one machine's calibration and its correction (a re-check beat the cached %.1f and "
                                + "calibrated again), so the same ruler", where, bp.peakFlopsPerSecond() / 1e9,
                                cp.peakFlopsPerSecond() / 1e9, Math.min(bp.peakFlopsPerSecond(), cp.peakFlopsPerSecond()) / 1e9));
                    }
                    continue;
                }
                if (apart(bp.peakFlopsPerSecond(), cp.peakFlopsPerSecond())) {
                    apart.add(io.inferbench.Text.f("calibrated FLOP peak of %s differs by more than %.0f%%: %.1f GFLOP/s in the "
                            + "baseline, %.1f in the candidate", where, 100 * MAX_PEAK_DIFFERENCE, bp.peakFlopsPerSecond() / 1e9,
                            cp.peakFlopsPerSecond() / 1e9));
                }
                if (apart(bp.peakBytesPerSecond(), cp.peakBytesPerSecond())) {
                    apart.add(io.inferbench.Text.f("calibrated bandwidth of %s differs by more than %.0f%%: %.1f GB/s in the "
                            + "baseline, %.1f in the candidate", where, 100 * MAX_PEAK_DIFFERENCE, bp.peakBytesPerSecond() / 1e9,
                            cp.peakBytesPerSecond() / 1e9));
                }
                // The machine's memory roof, which every cell's traffic is placed against, where both runs measured it.
                if (bp.machineRoof() != null && cp.machineRoof() != null
                        && apart(bp.machineRoof().bytesPerSecond(), cp.machineRoof().bytesPerSecond())) {
                    apart.add(io.inferbench.Text.f("the machine's memory roof under %s differs by more than %.0f%%: %.1f GB/s in "
                            + "the baseline, %.1f in the candidate", where, 100 * MAX_PEAK_DIFFERENCE,
                            bp.machineRoof().bytesPerSecond() / 1e9, cp.machineRoof().bytesPerSecond() / 1e9));
                }
                // The integer and float16 roofs, where both runs measured them: a VNNI or tensor-core difference
                // shows there even when the float32 peaks agree.
                if (bp.peakIntegerOpsPerSecond() != null && cp.peakIntegerOpsPerSecond() != null
                        && apart(bp.peakIntegerOpsPerSecond(), cp.peakIntegerOpsPerSecond())) {
                    apart.add(io.inferbench.Text.f("calibrated int8 roof of %s differs by more than %.0f%%: %.1f GOP/s in the "
                            + "baseline, %.1f in the candidate", where, 100 * MAX_PEAK_DIFFERENCE, bp.peakIntegerOpsPerSecond() / 1e9,
                            cp.peakIntegerOpsPerSecond() / 1e9));
                }
                if (bp.peakHalfFlopsPerSecond() != null && cp.peakHalfFlopsPerSecond() != null
                        && apart(bp.peakHalfFlopsPerSecond(), cp.peakHalfFlopsPerSecond())) {
                    apart.add(io.inferbench.Text.f("calibrated float16 roof of %s differs by more than %.0f%%: %.1f GFLOP/s in the "
                            + "baseline, %.1f in the candidate", where, 100 * MAX_PEAK_DIFFERENCE, bp.peakHalfFlopsPerSecond() / 1e9,
                            cp.peakHalfFlopsPerSecond() / 1e9));
                }
            }
        }
        return apart;
    }

    /**
     * Whether two runs' calibrations are one machine's: the same cache file (engine, device, threads, hardware), and one
     * run's re-check replaced exactly the peak the other run carries. A measured peak equal to the last bit on another
     * machine is not a coincidence that happens, so this proves the lineage, and on that machine the later figure is
     * the better measure of the same hardware (a first calibration during a slow minute can read low, and the next run
     * corrects it: docs/findings.md, "A calibration read low").
     */
    static boolean oneMachine(io.inferbench.results.ProfileResult.Calibration b, io.inferbench.results.ProfileResult.Calibration c) {
        return b.cacheFile() != null && b.cacheFile().equals(c.cacheFile())
                && (Objects.equals(c.replacedPeakFlopsPerSecond(), b.peakFlopsPerSecond())
                || Objects.equals(b.replacedPeakFlopsPerSecond(), c.peakFlopsPerSecond()));
    }

    private static boolean apart(double a, double b) {
        return Math.max(a, b) > (1 + MAX_PEAK_DIFFERENCE) * Math.min(a, b);
    }

    public static Check check(RunResult baseline, RunResult candidate) {
        return check(baseline, candidate, true, false);
    }

    /**
     * As {@link #check(RunResult, RunResult)}; with {@code codeChange}, a target whose code differs between the runs is
     * the change under test (listed), not another ruler.
     */
    public static Check check(RunResult baseline, RunResult candidate, boolean codeChange) {
        return check(baseline, candidate, true, codeChange);
    }

    /**
     * Whether two runs measured their cells the same way, for joining them (the shards of a plan): every rule of
     * {@link #check} but the one on forks, which is about the intervals a comparison draws between two runs, not about
     * how a cell was measured.
     */
    public static Check measuredAlike(RunResult baseline, RunResult candidate) {
        return check(baseline, candidate, false, false);
    }

    private static Check check(RunResult baseline, RunResult candidate, boolean forIntervals, boolean codeChange) {
        List<String> incomparable = new ArrayList<>();
        List<String> differences = new ArrayList<>();
        EnvironmentInfo b = baseline.environment();
        EnvironmentInfo c = candidate.environment();

        List<String> baseGpus = gpuField(b.gpus(), 1);
        List<String> candGpus = gpuField(c.gpus(), 1);
        if (!baseGpus.equals(candGpus)) {
            incomparable.add("GPU model differs: " + describe(baseGpus) + " in the baseline, " + describe(candGpus) + " in the candidate");
        }
        differ(differences, "GPU driver", gpuField(b.gpus(), 2), gpuField(c.gpus(), 2));

        boolean cpuCells = sharedDevices(baseline, candidate).contains("cpu");
        if (!Objects.equals(b.cpuModel(), c.cpuModel())) {
            String text = "CPU model differs: " + b.cpuModel() + " vs " + c.cpuModel();
            (cpuCells ? incomparable : differences).add(text);
        }
        if (b.cpu() != null && c.cpu() != null) {
            // The same marketing name can be different parts (a VM prints "AMD EPYC" for several generations).
            if (!b.cpu().part().equals(c.cpu().part()) || !b.cpu().isaFlags().equals(c.cpu().isaFlags())) {
                String text = "CPU identity differs: " + b.cpu().part() + " " + b.cpu().isaFlags() + " in the baseline, "
                        + c.cpu().part() + " " + c.cpu().isaFlags() + " in the candidate";
                (cpuCells ? incomparable : differences).add(text);
            }
            differ(differences, "CPU max clock (MHz)", b.cpu().maxMhz(), c.cpu().maxMhz());
        }
        incomparable.addAll(peaksApart(baseline, candidate, differences));
        for (RunConfig.ModelInfo bm : baseline.config().plan().models()) {
            for (RunConfig.ModelInfo cm : candidate.config().plan().models()) {
                if (bm.name().equals(cm.name()) && !bm.sha256().equals(cm.sha256())) {
                    incomparable.add("model " + bm.name() + " differs: SHA-256 " + bm.sha256() + " in the baseline, "
                            + cm.sha256() + " in the candidate");
                } else if (bm.name().equals(cm.name())) {
                    String inputs = inputsApart(bm.inputs(), cm.inputs());
                    if (inputs != null) {
                        incomparable.add("model " + bm.name() + "'s inputs differ: " + inputs);
                    }
                }
            }
        }

        targetsApart(baseline, candidate, codeChange, incomparable, differences);

        if (forIntervals && (baseline.config().rules().forks() < 2 || candidate.config().rules().forks() < 2)) {
            incomparable.add("forks per cell: " + baseline.config().rules().forks() + " in the baseline, " + candidate.config().rules().forks()
                    + " in the candidate; with one fork the interval cannot include run-to-run noise (two identical "
                    + "single-fork runs differed by up to 30%), so re-run with -Dbench.forks=3 or more");
        }
        differ(differences, "logical cores", b.logicalCores(), c.logicalCores());
        differ(differences, "memory bytes", b.memoryBytes(), c.memoryBytes());
        differ(differences, "OS", b.os() + " " + b.osVersion(), c.os() + " " + c.osVersion());
        differ(differences, "JVM", b.jvmName() + " " + b.jvmVersion(), c.jvmName() + " " + c.jvmVersion());
        differMaps(differences, "engine", b.engines(), c.engines());
        differMaps(differences, "library", b.libraries(), c.libraries());
        differ(differences, "execution providers", providers(baseline), providers(candidate));
        RunConfig bc = baseline.config();
        RunConfig cc = candidate.config();
        differ(differences, "warm-up passes per fork", counted(bc.rules().warmupPasses(), bc, "until steady"),
                counted(cc.rules().warmupPasses(), cc, "until steady"));
        differ(differences, "measured passes per fork", counted(bc.rules().measuredPasses(), bc, "until precise"),
                counted(cc.rules().measuredPasses(), cc, "until precise"));
        differ(differences, "warm-up and stop rules", bc.rules().measurePolicy(), cc.rules().measurePolicy());
        differ(differences, "forks per cell", bc.rules().forks(), cc.rules().forks());
        differ(differences, "seed", bc.rules().seed(), cc.rules().seed());
        differFields(differences, bc.forkJvms(), cc.forkJvms());
        differFields(differences, bc.engines(), cc.engines());
        return new Check(List.copyOf(incomparable), List.copyOf(differences));
    }

    /**
     * How two runs filled a model's inputs differently (names, types, shapes, generators with their data files' hashes,
     * axis bindings, the spec's hash), or null when they filled them alike or either run did not record them.
     */
    static String inputsApart(RunConfig.ModelInputs baseline, RunConfig.ModelInputs candidate) {
        if (baseline == null || candidate == null) {
            return null;
        }
        List<String> apart = new ArrayList<>();
        if (!baseline.inputs().equals(candidate.inputs())) {
            apart.add("inputs " + describeInputs(baseline.inputs()) + " in the baseline, " + describeInputs(candidate.inputs())
                    + " in the candidate");
        }
        if (!Objects.equals(baseline.seqAxis(), candidate.seqAxis()) || !Objects.equals(baseline.batchAxis(), candidate.batchAxis())
                || !baseline.dims().equals(candidate.dims())) {
            apart.add("axes (batch " + baseline.batchAxis() + ", swept " + baseline.seqAxis() + ", " + baseline.dims()
                    + ") in the baseline, (batch " + candidate.batchAxis() + ", swept " + candidate.seqAxis() + ", "
                    + candidate.dims() + ") in the candidate");
        }
        if (!Objects.equals(baseline.specSha256(), candidate.specSha256())) {
            apart.add("input spec SHA-256 " + baseline.specSha256() + " in the baseline, " + candidate.specSha256()
                    + " in the candidate");
        }
        return apart.isEmpty() ? null : String.join("; ", apart);
    }

    private static String describeInputs(List<RunConfig.InputInfo> inputs) {
        return inputs.stream().map(i -> i.name() + " " + i.type() + " " + i.shape() + " " + i.values()).toList().toString();
    }

    /** Field {@code index} of each {@code nvidia-smi} line "index, name, driver, memory"; empty without GPUs. */
    private static List<String> gpuField(List<String> gpus, int index) {
        if (gpus == null) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        for (String gpu : gpus) {
            String[] parts = gpu.split(",\\s*");
            values.add(parts.length > index ? parts[index].trim() : gpu);
        }
        return values;
    }

    private static String describe(List<String> gpus) {
        return gpus.isEmpty() ? "no GPU" : gpus.toString();
    }

    private static Set<String> sharedDevices(RunResult a, RunResult b) {
        Set<String> devices = new HashSet<>(a.config().plan().devices());
        devices.retainAll(b.config().plan().devices());
        return devices;
    }

    private static Set<String> providers(RunResult run) {
        Set<String> providers = new TreeSet<>();
        run.cells().stream().filter(CellResult::measured).forEach(c -> providers.add(c.device() + ": " + c.executionProvider()));
        return providers;
    }

    /** A fixed count, or what measured until a rule said so; runs before schema 8 always had a count. */
    private static String counted(Integer count, RunConfig config, String rule) {
        return count != null ? count.toString() : config.rules().measurePolicy() == null ? "unknown" : rule;
    }

    /**
     * How a field of the fork JVMs' and the engines' records is named in a difference, and what a run recorded when the
     * field did not exist yet (or was left at its default). A field not listed here is compared all the same, under its
     * own name: a new option of the measuring JVMs is named by compare as soon as run.json records it.
     */
    private record Field(String label, Function<Object, Object> asRecorded) {
    }

    private static final Map<String, Field> FIELDS = Map.of(
            "isolation", new Field("JVMs per fork round (isolation)", v -> v == null ? "cell" : v),
            "cellsPerJvm", new Field("cells per fork JVM", v -> v == null ? "all" : v),
            "forkJvmArgs", new Field("fork JVM options", v -> {
                String options = v == null ? "" : v.toString().trim().replaceAll("\\s+", " ");
                return options.isEmpty() ? "none" : options;
            }),
            "jitCompilation", new Field("JIT compilation in the fork JVMs' cells", v -> v == null ? "background" : v),
            "intraOpThreads", new Field("intra-op threads", v -> v),
            "interOpThreads", new Field("inter-op threads", v -> v),
            "allowCpuFallback", new Field("CPU fallback allowed", v -> v),
            "malloc", new Field("allocator policy in the fork JVMs", v -> v),
            "forkAllocatorEnvironment", new Field("allocator in the fork JVMs", v -> v),
            "forkEngineEnvironment", new Field("engine variables in the fork JVMs",
                    v -> v == null || ((Map<?, ?>) v).isEmpty() ? "none (each engine's own choice)" : v.toString()));

    /** Every field of two runs' records of one concern that differs, named ({@link #FIELDS}). */
    private static void differFields(List<String> out, Record baseline, Record candidate) {
        for (RecordComponent component : baseline.getClass().getRecordComponents()) {
            if (component.getName().equals("targets")) {
                continue; // a target's code and settings: targetsApart names what differs, for people
            }
            Field field = FIELDS.getOrDefault(component.getName(), new Field(component.getName(), v -> v));
            differ(out, field.label(), field.asRecorded().apply(value(component, baseline)),
                    field.asRecorded().apply(value(component, candidate)));
        }
    }

    private static Object value(RecordComponent component, Record of) {
        try {
            return component.getAccessor().invoke(of);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("reading " + component.getName() + " of " + of + ": " + e, e);
        }
    }

    private static void differ(List<String> out, String what, Object baseline, Object candidate) {
        if (!Objects.equals(baseline, candidate)) {
            out.add(what + ": " + baseline + " in the baseline, " + candidate + " in the candidate");
        }
    }

    private static void differMaps(List<String> out, String what, Map<String, String> baseline, Map<String, String> candidate) {
        Set<String> keys = new TreeSet<>();
        if (baseline != null) {
            keys.addAll(baseline.keySet());
        }
        if (candidate != null) {
            keys.addAll(candidate.keySet());
        }
        for (String key : keys) {
            differ(out, what + " " + key, baseline == null ? null : baseline.get(key), candidate == null ? null : candidate.get(key));
        }
    }
}
