package io.inferbench.compare;

import io.inferbench.results.CpuIdentity;
import io.inferbench.results.EnvironmentInfo;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.SampleRuns;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two machines that print the same CPU name are not the same ruler when they are different parts, or when their
 * calibrated peaks are far apart (this project's build machines printed "AMD EPYC" for a 174 and a 445 GFLOP/s part).
 */
class SameRulerIdentityTest {

    private static RunResult withCpu(RunResult run, CpuIdentity cpu) {
        EnvironmentInfo e = run.environment();
        EnvironmentInfo environment = new EnvironmentInfo(e.machine(), e.jvm(), e.engines(), e.libraries(), e.gpus(),
                e.gpuNote(), cpu);
        return run.withEnvironment(environment);
    }

    private static RunResult withFlopPeak(RunResult run, double peak) {
        ProfileResult p = run.profile();
        List<ProfileResult.Calibration> calibrations = p.calibrations().stream().map(c -> new ProfileResult.Calibration(c.backend(),
                c.device(), c.intraOpThreads(),
                new ProfileResult.Calibration.Peaks(peak, c.peakBytesPerSecond(), c.callFloorMs(),
                        peak / c.peakBytesPerSecond(), c.peakIntegerOpsPerSecond(), c.peakHalfFlopsPerSecond()),
                c.method(), c.cacheNote(), c.datasheet())).toList();
        return run.withProfile(new ProfileResult(calibrations, p.floors(), p.thresholds(), p.cells(), p.crossChecks()));
    }

    private static RunResult withTorchKernels(RunResult run, java.util.Map<String, String> environment) {
        return withForkJvm(run, run.config().forkJvms().forkJvmArgs(), environment);
    }

    private static RunResult withForkJvm(RunResult run, String jvmArgs, java.util.Map<String, String> environment) {
        return withForkJvm(run, jvmArgs, environment, run.config().forkJvms().jitCompilation());
    }

    /** The run with its fork JVMs' options, PyTorch kernel variables and JIT mode replaced. */
    private static RunResult withForkJvm(RunResult run, String jvmArgs, java.util.Map<String, String> environment,
                                         String jit) {
        io.inferbench.results.RunConfig c = run.config();
        io.inferbench.results.RunConfig.Engines e = c.engines();
        return run.withConfig(c.withForkJvms(new io.inferbench.results.RunConfig.ForkJvms(c.forkJvms().isolation(),
                        c.forkJvms().cellsPerJvm(), jvmArgs, jit))
                .withEngines(new io.inferbench.results.RunConfig.Engines(e.intraOpThreads(), e.interOpThreads(),
                        e.allowCpuFallback(), e.malloc(), e.forkAllocatorEnvironment(), environment)));
    }

    private static RunResult withInputs(RunResult run, io.inferbench.results.RunConfig.ModelInputs inputs) {
        io.inferbench.results.RunConfig c = run.config();
        return run.withConfig(c.withModels(c.plan().models().stream().map(m -> new io.inferbench.results.RunConfig.ModelInfo(
                m.name(), m.sha256(), m.sizeBytes(), m.description(), inputs)).toList()));
    }

    private static io.inferbench.results.RunConfig.ModelInputs pixels(String values, java.util.Map<String, Long> dims,
                                                                      String specSha) {
        return new io.inferbench.results.RunConfig.ModelInputs("batch", null, dims, specSha == null ? null : "spec.json", specSha,
                java.util.List.of(new io.inferbench.results.RunConfig.InputInfo("pixel_values", "float32",
                        java.util.List.of("batch", "3", "64", "64"), values)));
    }

    /**
     * The same model fed other inputs is another ruler: another generator, another data file (its hash is in the label),
     * another axis size or another spec. A run from before inputs were recorded is not judged on them.
     */
    @Test
    void inputsFilledDifferentlyMakeRunsIncomparable() {
        RunResult base = SampleRuns.sampleRun();
        RunResult normal = withInputs(base, pixels("normal(0,1)", java.util.Map.of(), null));
        assertFalse(SameRuler.check(normal, normal).incomparable().stream().anyMatch(s -> s.contains("inputs differ")));
        assertFalse(SameRuler.check(normal, base).incomparable().stream().anyMatch(s -> s.contains("inputs differ")),
                "a run without the record is not judged on it");
        RunResult rows = withInputs(base, pixels("npy pixels.npy [32,3,64,64] sha256 aa", java.util.Map.of(), "s1"));
        RunResult otherRows = withInputs(base, pixels("npy pixels.npy [32,3,64,64] sha256 bb", java.util.Map.of(), "s1"));
        assertTrue(SameRuler.check(normal, rows).incomparable().stream().anyMatch(s -> s.contains("inputs differ")
                && s.contains("normal(0,1)") && s.contains("sha256 aa")), SameRuler.check(normal, rows).incomparable().toString());
        assertTrue(SameRuler.check(rows, otherRows).incomparable().stream().anyMatch(s -> s.contains("sha256 bb")));
        RunResult otherSpec = withInputs(base, pixels("npy pixels.npy [32,3,64,64] sha256 aa", java.util.Map.of(), "s2"));
        assertTrue(SameRuler.check(rows, otherSpec).incomparable().stream().anyMatch(s -> s.contains("input spec SHA-256 s1")));
        RunResult bound = withInputs(base, pixels("normal(0,1)", java.util.Map.of("frames", 30L), null));
        assertTrue(SameRuler.check(normal, bound).incomparable().stream().anyMatch(s -> s.contains("{frames=30}")));
    }

    /** An engine's variable (PyTorch's AVX2 kernels) against its own choice: a difference compare names, as a run before the field had none. */
    @Test
    void pytorchsKernelChoiceIsNamedWhenItDiffers() {
        RunResult base = SampleRuns.sampleRun();
        RunResult avx2 = withTorchKernels(base, java.util.Map.of("ATEN_CPU_CAPABILITY", "avx2"));
        SameRuler.Check check = SameRuler.check(withTorchKernels(base, null), avx2);
        assertTrue(check.differences().stream().anyMatch(s -> s.contains("engine variables in the fork JVMs")
                && s.contains("ATEN_CPU_CAPABILITY=avx2") && s.contains("none (each engine's own choice)")), check.differences().toString());
        assertFalse(SameRuler.check(avx2, avx2).differences().stream().anyMatch(s -> s.contains("engine variables in the fork JVMs")));
        assertFalse(SameRuler.check(withTorchKernels(base, java.util.Map.of()), withTorchKernels(base, null)).differences()
                .stream().anyMatch(s -> s.contains("engine variables in the fork JVMs")), "an empty record and none both mean each engine chose");
    }

    /** Fork JVMs started with other options: named, spacing aside. */
    @Test
    void forkJvmOptionsAreNamedWhenTheyDiffer() {
        RunResult base = SampleRuns.sampleRun();
        RunResult background = withForkJvm(base, "-Xmx4g", base.config().engines().forkEngineEnvironment());
        RunResult foreground = withForkJvm(base, "-Xmx4g -XX:-BackgroundCompilation", base.config().engines().forkEngineEnvironment());
        SameRuler.Check check = SameRuler.check(background, foreground);
        assertFalse(check.incomparable().stream().anyMatch(s -> s.contains("JVM options")), "listed, not refused");
        assertTrue(check.differences().contains("fork JVM options: -Xmx4g in the baseline, -Xmx4g -XX:-BackgroundCompilation "
                + "in the candidate"), check.differences().toString());
        assertFalse(SameRuler.check(foreground, withForkJvm(base, " -Xmx4g  -XX:-BackgroundCompilation", null))
                .differences().stream().anyMatch(s -> s.contains("fork JVM options")), "only spacing differs");
        assertTrue(SameRuler.check(withForkJvm(base, null, null), background).differences()
                .contains("fork JVM options: none in the baseline, -Xmx4g in the candidate"));
    }

    /** Foreground compiling in the cells against a run from before the field: that run compiled in the background. */
    @Test
    void jitCompilationIsNamedWhenItDiffers() {
        RunResult base = SampleRuns.sampleRun();
        RunResult foreground = withJit(base, "foreground");
        SameRuler.Check check = SameRuler.check(withJit(base, null), foreground);
        assertTrue(check.differences().contains("JIT compilation in the fork JVMs' cells: background in the baseline, "
                + "foreground in the candidate"), check.differences().toString());
        assertFalse(SameRuler.check(foreground, foreground).differences().stream().anyMatch(s -> s.contains("JIT")));
        assertFalse(SameRuler.check(withJit(base, "background"), withJit(base, null)).differences().stream()
                .anyMatch(s -> s.contains("JIT")), "no record means HotSpot's default, the background");
    }

    private static RunResult withJit(RunResult run, String jit) {
        return withForkJvm(run, run.config().forkJvms().forkJvmArgs(), run.config().engines().forkEngineEnvironment(), jit);
    }

    @Test
    void theSameNameOnAnotherPartIsAnotherRuler() {
        RunResult zen4 = SampleRuns.sampleRun();
        CpuIdentity c = zen4.environment().cpu();
        RunResult otherModel = withCpu(zen4, new CpuIdentity(c.vendor(), c.family(), 160, c.stepping(), c.isaFlags(), null));
        SameRuler.Check check = SameRuler.check(zen4, otherModel);
        assertFalse(check.comparable());
        assertTrue(check.incomparable().stream().anyMatch(s -> s.contains("CPU identity differs") && s.contains("model 160")),
                check.incomparable().toString());
        RunResult noVnni = withCpu(zen4, new CpuIdentity(c.vendor(), c.family(), c.model(), c.stepping(),
                List.of("avx2", "fma", "f16c", "avx512f"), null));
        assertTrue(identityRefused(SameRuler.check(zen4, noVnni)), "the ISA flags differ: VNNI");
        assertFalse(identityRefused(SameRuler.check(zen4, withCpu(zen4, c))), "the same part");
    }

    private static boolean identityRefused(SameRuler.Check check) {
        return check.incomparable().stream().anyMatch(s -> s.contains("CPU identity differs"));
    }

    private static boolean peaksRefused(SameRuler.Check check) {
        return check.incomparable().stream().anyMatch(s -> s.contains("calibrated FLOP peak"));
    }

    @Test
    void peaksMoreThanFifteenPercentApartAreAnotherRulerAndNamed() {
        RunResult base = SampleRuns.sampleRun();
        double peak = base.profile().calibrations().get(0).peakFlopsPerSecond();
        SameRuler.Check far = SameRuler.check(base, withFlopPeak(base, peak * 2.5));
        assertFalse(far.comparable());
        assertTrue(far.incomparable().stream().anyMatch(s -> s.contains("calibrated FLOP peak") && s.contains("GFLOP/s")),
                far.incomparable().toString());
        assertFalse(peaksRefused(SameRuler.check(base, withFlopPeak(base, peak * 1.10))), "10% apart: the same ruler");
        assertTrue(peaksRefused(far));
    }

    private static RunResult withLineage(RunResult run, double peak, String cacheFile, Double replaced) {
        ProfileResult p = run.profile();
        List<ProfileResult.Calibration> calibrations = p.calibrations().stream().map(c -> new ProfileResult.Calibration(c.backend(),
                c.device(), c.intraOpThreads(),
                new ProfileResult.Calibration.Peaks(peak, c.peakBytesPerSecond(), c.callFloorMs(),
                        peak / c.peakBytesPerSecond(), c.peakIntegerOpsPerSecond(), c.peakHalfFlopsPerSecond()),
                c.method(), c.cacheNote(), c.datasheet(), cacheFile, replaced)).toList();
        return run.withProfile(new ProfileResult(calibrations, p.floors(), p.thresholds(), p.cells(), p.crossChecks()));
    }

    /**
     * The case that failed a CI run after the calibration went to rounds: the first run on a fresh machine calibrated
     * during a slow minute (280.8 GFLOP/s); a later run's re-check beat that cache by more than 10% and calibrated again
     * (354.4). The later run records the peak it replaced, which is exactly the earlier run's: one machine, its
     * calibration corrected, the same ruler (listed among the differences). Another cache file, or a replaced peak that
     * is not the baseline's, is still another ruler.
     */
    @Test
    void aCalibrationCorrectedOnTheSameMachineIsTheSameRuler() {
        RunResult base = SampleRuns.sampleRun();
        String file = "calibration-onnxruntime-cpu-t2x1-7835cc1a.json";
        RunResult first = withLineage(base, 280.8e9, file, null);
        RunResult corrected = withLineage(base, 354.4e9, file, 280.8e9);
        SameRuler.Check check = SameRuler.check(first, corrected);
        assertFalse(peaksRefused(check), check.incomparable().toString());
        assertTrue(check.differences().stream().anyMatch(s -> s.contains("one machine's calibration and its correction")),
                check.differences().toString());
        assertFalse(peaksRefused(SameRuler.check(corrected, first)), "either way round");
        assertTrue(peaksRefused(SameRuler.check(first, withLineage(base, 354.4e9, "another-key.json", 280.8e9))),
                "another cache file: another machine or engine");
        assertTrue(peaksRefused(SameRuler.check(first, withLineage(base, 354.4e9, file, 281.0e9))),
                "it replaced another peak than the baseline's");
        assertTrue(peaksRefused(SameRuler.check(withLineage(base, 280.8e9, null, null), withLineage(base, 354.4e9, null, 280.8e9))),
                "runs that do not record their cache file");
    }

    /**
     * The engines' figures agree, the machine's memory roofs do not (another memory, or the roof measured on a busier
     * machine): every cell's traffic is placed against that roof, so it is another ruler, named.
     */
    @Test
    void machineMemoryRoofsMoreThanFifteenPercentApartAreAnotherRuler() {
        RunResult base = SampleRuns.sampleRun();
        ProfileResult p = base.profile();
        ProfileResult.MachineRoof roof = p.calibrations().get(0).machineRoof();
        java.util.function.DoubleFunction<RunResult> withRoof = bytes -> base.withProfile(new ProfileResult(
                p.calibrations().stream().map(c -> c.withMachineRoof(new ProfileResult.MachineRoof(bytes, roof.source(),
                        roof.method(), roof.cacheNote(), null, null))).toList(), p.floors(), p.thresholds(), p.cells(), p.crossChecks()));
        SameRuler.Check far = SameRuler.check(base, withRoof.apply(roof.bytesPerSecond() * 0.7));
        assertFalse(far.comparable());
        assertTrue(far.incomparable().stream().anyMatch(s -> s.contains("the machine's memory roof") && s.contains("50.0 GB/s")
                && s.contains("35.0")), far.incomparable().toString());
        assertTrue(SameRuler.check(base, withRoof.apply(roof.bytesPerSecond() * 0.9)).incomparable().stream()
                .noneMatch(s -> s.contains("memory roof")), "10% apart: the same ruler");
    }

    /** The float32 peaks agree, the int8 roofs do not (a VNNI part against one without): another ruler, named. */
    @Test
    void integerRoofsMoreThanFifteenPercentApartAreAnotherRuler() {
        RunResult base = SampleRuns.sampleRun();
        ProfileResult p = base.profile();
        RunResult noVnni = base.withProfile(new ProfileResult(p.calibrations().stream().map(c -> new ProfileResult.Calibration(c.backend(),
                c.device(), c.intraOpThreads(),
                new ProfileResult.Calibration.Peaks(c.peakFlopsPerSecond(), c.peakBytesPerSecond(), c.callFloorMs(),
                        c.ridgeFlopsPerByte(), c.peakIntegerOpsPerSecond() / 3, null),
                c.method(), c.cacheNote(), c.datasheet())).toList(),
                p.floors(), p.thresholds(), p.cells(), p.crossChecks()));
        SameRuler.Check check = SameRuler.check(base, noVnni);
        assertFalse(check.comparable());
        assertTrue(check.incomparable().stream().anyMatch(s -> s.contains("int8 roof") && s.contains("1200.0 GOP/s")
                && s.contains("400.0")), check.incomparable().toString());
    }

    @Test
    void theIdentityIsReadFromCpuinfoAndCpufreq(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path cpuinfo = Files.writeString(dir.resolve("cpuinfo"), String.join("\n",
                "processor\t: 0", "vendor_id\t: AuthenticAMD", "cpu family\t: 25", "model\t\t: 17", "model name\t: AMD EPYC",
                "stepping\t: 1", "flags\t\t: fpu sse2 avx2 fma avx512f avx512_vnni amx_tile", "", "processor\t: 1",
                "vendor_id\t: Other", ""));
        Path freq = Files.writeString(dir.resolve("max"), "3700000\n");
        CpuIdentity cpu = io.inferbench.environment.EnvironmentProbeAccess.cpuIdentity(cpuinfo, freq);
        assertEquals("AuthenticAMD family 25 model 17 stepping 1", cpu.part());
        assertEquals(List.of("avx2", "fma", "avx512f", "avx512_vnni", "amx_tile"), cpu.isaFlags());
        assertEquals(3700.0, cpu.maxMhz(), 1e-9);
        assertNull(io.inferbench.environment.EnvironmentProbeAccess.cpuIdentity(cpuinfo, dir.resolve("missing")).maxMhz());
    }
}
