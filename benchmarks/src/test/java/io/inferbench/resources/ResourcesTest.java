package io.inferbench.resources;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.probe.EnergyUse;
import io.inferbench.probe.MemoryUse;
import io.inferbench.results.ResourcesResult;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Memory, energy and the largest batch that fits: /proc and powercap read from hand-written files, the fit by hand. */
class ResourcesTest {
    @TempDir
    Path dir;

    private static ResourcesResult.CellResources cell(int batch, double peakMb) {
        return new ResourcesResult.CellResources(new SeriesKey("onnxruntime", "cpu", "tiny", 64), batch, peakMb,
                MemoryUse.SINCE_CELL, 1.0, 50.0, 99.0, 1.0, null, null, null);
    }

    /** 400 MiB at batch 0 and 10 MiB per sample: a 1,000 MiB budget holds batch 60, beyond the swept 8. */
    @Test
    void theLargestBatchThatFitsIsThePredictedPeakWithinTheBudget() {
        List<ResourcesResult.CellResources> cells = List.of(cell(1, 410), cell(2, 420), cell(4, 440), cell(8, 480));
        ResourcesResult.MemoryFit fit = Resources.fit(cells, 1000.0);
        assertEquals(10.0, fit.slopeMbPerSample(), 1e-9);
        assertEquals(400.0, fit.interceptMb(), 1e-9);
        assertEquals(60, fit.largestBatch());
        assertTrue(fit.extrapolated(), "60 is beyond the largest batch swept");
        assertTrue(fit.note().contains("extrapolated beyond the largest batch swept (8)"), fit.note());

        ResourcesResult.MemoryFit within = Resources.fit(cells, 445.0);
        assertEquals(4, within.largestBatch());
        assertFalse(within.extrapolated());
        assertEquals(0, Resources.fit(cells, 300.0).largestBatch(), "even batch 1 is above a budget under the fixed part");
    }

    /** Against Commons Math's regression on noisy points, and without a budget no answer but how to give one. */
    @Test
    void theFitIsLeastSquaresAndWithoutABudgetSaysHowToGiveOne() {
        List<ResourcesResult.CellResources> cells = List.of(cell(1, 401), cell(2, 425), cell(3, 428), cell(4, 447));
        SimpleRegression r = new SimpleRegression();
        cells.forEach(c -> r.addData(c.batch(), c.peakRssMb()));
        ResourcesResult.MemoryFit fit = Resources.fit(cells, null);
        assertEquals(r.getSlope(), fit.slopeMbPerSample(), 1e-12);
        assertEquals(r.getIntercept(), fit.interceptMb(), 1e-12);
        assertNull(fit.largestBatch());
        assertTrue(fit.note().contains("-Dbench.memoryBudgetMb"), fit.note());
        ResourcesResult.MemoryFit flat = Resources.fit(List.of(cell(1, 500), cell(8, 499)), 1000.0);
        assertNull(flat.largestBatch(), "a peak that does not grow sets no limit");
        assertTrue(flat.note().contains("does not grow with batch"), flat.note());
    }

    /** /proc/self/status read by hand: VmRSS and VmHWM in kB; a peak not reset is said to be since the JVM started. */
    @Test
    void memoryIsReadFromProcStatus() throws IOException {
        Path status = Files.writeString(dir.resolve("status"), "Name:\tjava\nVmHWM:\t  524288 kB\nVmRSS:\t  262144 kB\n");
        MemoryUse.Reader probe = new MemoryUse.Reader(status, dir.resolve("no-such-dir/clear_refs"));
        assertEquals(256.0, probe.rssMb(), 1e-9);
        assertFalse(probe.resetPeak(), "a clear_refs that cannot be written is not a reset");
        MemoryUse m = probe.end(200.0, false);
        assertEquals(512.0, m.peakRssMb(), 1e-9);
        assertEquals(56.0, m.rssGrowthMb(), 1e-9);
        assertEquals(MemoryUse.SINCE_JVM_START, m.peakSince());
        assertNull(new MemoryUse.Reader(dir.resolve("missing"), dir.resolve("x")).end(200.0, true), "no /proc: no figures");
    }

    /** RAPL counters by hand: two packages summed, one of them wrapped; none at all is said to be unavailable, with why. */
    @Test
    void energyIsReadFromRaplAndItsAbsenceIsSaidWithTheReason() throws IOException {
        for (String domain : List.of("intel-rapl:0", "intel-rapl:1", "intel-rapl:0:0")) {
            Files.createDirectories(dir.resolve(domain));
            Files.writeString(dir.resolve(domain).resolve("max_energy_range_uj"), "1000000000\n");
        }
        Files.writeString(dir.resolve("intel-rapl:0/energy_uj"), "5000000\n");
        Files.writeString(dir.resolve("intel-rapl:1/energy_uj"), "999000000\n");
        Files.writeString(dir.resolve("intel-rapl:0:0/energy_uj"), "123\n");
        EnergyUse.Rapl rapl = new EnergyUse.Rapl(dir);
        EnergyUse.Rapl.Reading before = rapl.read();
        Files.writeString(dir.resolve("intel-rapl:0/energy_uj"), "8000000\n");   // +3 J
        Files.writeString(dir.resolve("intel-rapl:1/energy_uj"), "1000000\n");   // wrapped: +2 J
        EnergyUse e = rapl.between(before, rapl.read(), 500, 100, 4);
        assertEquals(5.0, e.joules(), 1e-9, "the packages summed, the sub-domain left out, the wrap corrected");
        assertEquals(10.0, e.meanWatts(), 1e-9);
        assertEquals(0.05, e.joulesPerPass(), 1e-12);
        assertEquals(12.5, e.joulesPer1000Samples(), 1e-9);
        assertNull(e.unavailable());

        EnergyUse.Rapl none = new EnergyUse.Rapl(dir.resolve("absent"));
        EnergyUse missing = none.between(none.read(), none.read(), 500, 100, 4);
        assertNull(missing.joules(), "never an estimate");
        assertTrue(missing.unavailable().contains("no RAPL package domain"), missing.unavailable());
    }

    /** A budget that is not a positive number of MiB is refused before anything runs, with the fix. */
    @Test
    void aBadMemoryBudgetIsRefusedWithTheFix() {
        java.util.Properties p = new java.util.Properties();
        assertNull(io.inferbench.cli.Settings.memoryBudgetMb(p), "none given");
        p.setProperty("bench.memoryBudgetMb", "-5");
        String message = org.junit.jupiter.api.Assertions.assertThrows(io.inferbench.BenchmarkException.class,
                () -> io.inferbench.cli.Settings.memoryBudgetMb(p)).getMessage();
        assertTrue(message.contains("-Dbench.memoryBudgetMb") && message.contains("MiB above 0") && message.contains("-5"), message);
        p.setProperty("bench.memoryBudgetMb", "16384");
        assertEquals(16384.0, io.inferbench.cli.Settings.memoryBudgetMb(p));
    }

    private static io.inferbench.probe.GpuUse gpu(double processMb, double deviceMb, double watts, double joulesPerPass,
                                                    List<String> reasons) {
        return new io.inferbench.probe.GpuUse(10, 100, new io.inferbench.probe.GpuUse.Utilisation(70.0, 90.0),
                new io.inferbench.probe.GpuUse.Memory(deviceMb, 81559.0, processMb),
                new io.inferbench.probe.GpuUse.Power(watts, watts + 50, null, joulesPerPass, joulesPerPass * 1000),
                new io.inferbench.probe.GpuUse.Clocks(1900.0, 1755.0, reasons), "fake", null);
    }

    /** A CUDA cell's forks: means of power and energy, the least of the memory figures, every throttle reason. */
    @Test
    void aCudaCellsGpuIsGatheredOverItsForks() {
        var g = Resources.gpu(List.of(gpu(900, 1500, 100, 0.2, List.of("SW power cap")), gpu(1000, 1400, 200, 0.4, null),
                io.inferbench.probe.GpuUse.unavailable("fake", 100, "no sample within the measurement's 50 ms")));
        assertEquals(20, g.samples(), "the unavailable fork adds none");
        assertEquals(150.0, g.figures().meanWatts(), 1e-9);
        assertEquals(250.0, g.figures().maxWatts());
        assertEquals(0.3, g.figures().joulesPerPass(), 1e-9);
        assertEquals(900.0, g.figures().processMemoryMb());
        assertEquals(1400.0, g.figures().deviceMemoryPeakMb());
        assertEquals(81559.0, g.figures().deviceMemoryTotalMb());
        assertEquals(List.of("SW power cap"), g.figures().throttleReasons());
        assertNull(g.unavailable());
        var none = Resources.gpu(List.of(io.inferbench.probe.GpuUse.unavailable("fake", 100, "nvidia-smi could not be started")));
        assertEquals("nvidia-smi could not be started", none.unavailable());
        assertNull(Resources.gpu(List.of()), "no GPU figures on the CPU");
    }

    /**
     * The GPU fit: the process's GPU memory against batch, held to the GPU's memory (81,559 MiB) when no budget is given:
     * 1,000 MiB at batch 0 and 500 MiB per sample fit batch 161.
     */
    @Test
    void onCudaTheLargestBatchIsHeldToTheGpusMemory() {
        List<ResourcesResult.CellResources> cells = new java.util.ArrayList<>();
        for (int batch : List.of(1, 2, 4, 8)) {
            double mb = 1000 + 500.0 * batch;
            cells.add(new ResourcesResult.CellResources(new SeriesKey("onnxruntime", "cuda:0", "tiny", 64), batch,
                    3000.0, MemoryUse.SINCE_CELL, 1.0, 50.0, 99.0, 1.0, null, null, null,
                    Resources.gpu(List.of(gpu(mb, mb + 300, 200, 0.1, null)))));
        }
        List<ResourcesResult.GpuMemoryFit> fits = Resources.gpuFits(cells, null);
        assertEquals(1, fits.size());
        ResourcesResult.GpuMemoryFit f = fits.get(0);
        assertEquals(500.0, f.slopeMbPerSample(), 1e-9);
        assertEquals(1000.0, f.interceptMb(), 1e-9);
        assertEquals(81559.0, f.budgetMb());
        assertEquals(Math.floor((81559.0 - 1000) / 500), f.largestBatch().doubleValue());
        assertTrue(f.extrapolated());
        assertTrue(f.memory().startsWith("process GPU memory"), f.memory());
        assertTrue(f.note().startsWith("the process's GPU memory: 1000 MiB at batch 0 plus 500.00 MiB per sample"), f.note());
        assertEquals(2048.0, Resources.gpuFits(cells, 2048.0).get(0).budgetMb(), "a budget given wins");
        assertEquals(2, Resources.gpuFits(cells, 2048.0).get(0).largestBatch());
        assertTrue(Resources.gpuFits(List.of(cell(1, 400), cell(2, 410)), null).isEmpty(), "no GPU fit on the CPU");
    }

    @Test
    void aGivenNvidiaSmiThatIsNoExecutableIsRefusedBeforeTheRun() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("bench.seq", "64");
        p.setProperty("bench.nvidiaSmi", dir.resolve("missing/nvidia-smi").toString());
        String message = org.junit.jupiter.api.Assertions.assertThrows(io.inferbench.BenchmarkException.class,
                () -> io.inferbench.cli.Settings.sweep(p)).getMessage();
        assertTrue(message.contains("-Dbench.nvidiaSmi=") && message.contains("not an executable file"), message);
    }

    /**
     * On the CPU, what session creation adds to the resident set is the model: {@code base}'s session (about 260 MB of
     * float32 weights) adds at least half its file's size more than {@code tiny}'s does. Measured as the sweep's fork
     * JVMs do it ({@link MemoryUse.Reader#rssMb} before and after opening the session).
     */
    @Test
    void baseSessionAddsMostOfItsWeightsToTheResidentSet() throws IOException {
        io.inferbench.engine.SessionDefaults defaults = new io.inferbench.engine.SessionDefaults(io.inferbench.TestPaths.modelCache(),
                io.inferbench.TestPaths.nativeCache(), 42, 1, 1, false, null);
        var engine = defaults.backend("onnxruntime");
        double[] added = new double[2];
        long[] bytes = new long[2];
        String[] models = {"tiny", "base"};
        List<io.inferbench.engine.InferenceSession> open = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                var spec = defaults.spec(io.inferbench.model.ModelSource.parse(models[i]), "cpu");
                bytes[i] = Files.size(spec.modelFile());
                double before = MemoryUse.Reader.self().rssMb();
                open.add(engine.open(spec));
                added[i] = MemoryUse.Reader.self().rssMb() - before;
            }
        } finally {
            open.forEach(io.inferbench.engine.InferenceSession::close);
        }
        double fileDifferenceMb = (bytes[1] - bytes[0]) / (1024.0 * 1024.0);
        System.out.printf(java.util.Locale.ROOT, "[ResourcesTest] session creation added %.0f MiB for tiny (%.1f MiB file), "
                + "%.0f MiB for base (%.1f MiB file)%n", added[0], bytes[0] / 1048576.0, added[1], bytes[1] / 1048576.0);
        assertTrue(fileDifferenceMb > 200, "base's file is the larger by " + fileDifferenceMb + " MiB");
        assertTrue(added[1] - added[0] >= 0.5 * fileDifferenceMb, String.format(java.util.Locale.ROOT,
                "base's session added %.0f MiB, tiny's %.0f MiB; the files differ by %.0f MiB", added[1], added[0], fileDifferenceMb));
    }
}
