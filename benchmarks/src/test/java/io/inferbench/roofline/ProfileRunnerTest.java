package io.inferbench.roofline;

import io.inferbench.cli.Settings;
import io.inferbench.model.EncoderConfig;
import io.inferbench.model.EncoderPreset;
import io.inferbench.pipeline.TestRuns;
import io.inferbench.results.CellProfile;
import io.inferbench.results.CellResult;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole profile step on a real (small) sweep of tiny on ONNX Runtime, CPU. */
class ProfileRunnerTest {
    @TempDir
    Path dir;

    @Test
    void profilesEveryCellCountsItsWorkAndChecksEveryVerdict() throws Exception {
        SweepOptions sweep = Settings.sweep(TestOptions.minimal(dir.resolve("results")));
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(console, true, StandardCharsets.UTF_8);
        RunResult run = TestRuns.sweep(sweep, new InProcessForkExecutor(), log).run();
        ProfileResult profile = new ProfileRunner(sweep.sessionDefaults(), log).run(run, dir.resolve("run"));

        ProfileResult.Calibration peaks = profile.calibrations().get(0);
        assertEquals(1, profile.floors().size(), "one engine, device and model");
        ProfileResult.ModelFloor floor = profile.floors().get(0);
        assertNotNull(floor.passMs(), floor.method());
        // The floor runs by the run's own warm-up and stop rules, as every cell did (here the test's fixed counts).
        var policy = run.config().rules().measurePolicy();
        assertTrue(floor.method().contains("warm-up " + policy.warmup().fixedPasses() + " passes")
                && floor.method().contains("then " + policy.stop().fixedPasses() + " passes"), floor.method());
        assertNotNull(floor.workMs(), "tiny's work at seq 1 is counted from its profile");
        assertTrue(floor.overheadMs() >= peaks.callFloorMs(), "never below the engine's floor: " + floor);
        assertEquals(Math.max(peaks.callFloorMs(), floor.passMs() - floor.workMs()), floor.overheadMs(), 1e-12);

        EncoderConfig c = EncoderPreset.TINY.config();
        long measured = run.cells().stream().filter(CellResult::measured).count();
        assertEquals(measured, profile.cells().size(), "every measured cell is profiled");
        for (CellProfile cell : profile.cells()) {
            double s = cell.seqLen();
            double h = c.hidden();
            double products = cell.batch() * (c.layers() * (24 * s * h * h + 4 * s * s * h) + 2 * h * c.numLabels());
            assertTrue(cell.flops() >= products && cell.flops() < 1.05 * products, cell.flops() + " vs " + products);
            assertEquals(floor.overheadMs() / cell.passMs(), cell.callFloorShare(), 1e-12);
            assertTrue(!cell.opShares().isEmpty() && cell.opShares().get(0).sharePercent() > 0, cell.opShares().toString());
            double shares = cell.opShares().stream().mapToDouble(ProfileResult.OpShare::sharePercent).sum();
            assertEquals(100, shares, 1e-6, "op shares add up to the pass's kernel time");
            assertTrue(cell.cpuNodes().isEmpty(), "a CPU session has no CPU placement to report");
        }
        assertEquals(run.fits().size(), profile.crossChecks().size(), "one cross-check per series");
        profile.crossChecks().forEach(check -> assertTrue(check.explanation().length() > 40, check.explanation()));
        // Every cell's trace is kept under a name of its own shape, the one its note gives.
        Path traces = dir.resolve("run/profiles/onnxruntime-cpu");
        for (CellProfile cell : profile.cells()) {
            String name = cell.profileNote().substring(cell.profileNote().lastIndexOf("trace ") + "trace ".length());
            assertTrue(name.matches("ort-.+-seq" + cell.seqLen() + "-batch" + cell.batch() + "\\.json"), name);
            assertTrue(Files.isRegularFile(traces.resolve(name)), "the trace is kept: " + name);
        }
        try (Stream<Path> kept = Files.list(traces)) {
            assertEquals(profile.cells().size() + 1, kept.count(), "one trace per cell, and the floor's at seq 1");
        }
    }

    /**
     * tiny-int8's projections are integer products: the work splits by precision, almost all of it int8, and each cell
     * is judged against a roof between the measured float32 and int8 peaks, never withheld for passing the float32 one.
     */
    @Test
    void anInt8ModelIsJudgedAgainstTheMeasuredIntegerRoof() throws Exception {
        java.util.Properties options = TestOptions.minimal(dir.resolve("results"));
        options.setProperty("bench.model", "tiny-int8");
        SweepOptions sweep = Settings.sweep(options);
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        RunResult run = TestRuns.sweep(sweep, new InProcessForkExecutor(), log).run();
        ProfileResult profile = new ProfileRunner(sweep.sessionDefaults(), log).run(run, dir.resolve("run"));

        ProfileResult.Calibration peaks = profile.calibrations().get(0);
        assertNotNull(peaks.peakIntegerOpsPerSecond(), "the int8 roof is measured");
        assertNotNull(peaks.machineRoof(), "the machine's own memory roof beside the engine's figure");
        assertTrue(peaks.machineRoof().method().startsWith("in-place b[i] += c[i]"), peaks.machineRoof().method());
        double low = Math.min(peaks.peakFlopsPerSecond(), peaks.peakIntegerOpsPerSecond());
        double high = Math.max(peaks.peakFlopsPerSecond(), peaks.peakIntegerOpsPerSecond());
        assertEquals(run.cells().stream().filter(CellResult::measured).count(), profile.cells().size());
        for (CellProfile cell : profile.cells()) {
            double int8 = cell.flopsByPrecision().getOrDefault("int8", 0.0);
            assertTrue(int8 > 0.9 * cell.flops(), "the projections are integer products: " + cell.flopsByPrecision());
            assertTrue(cell.roofFlopsPerSecond() >= low * (1 - 1e-9) && cell.roofFlopsPerSecond() <= high * (1 + 1e-9),
                    cell.roofFlopsPerSecond() + " between " + low + " and " + high);
            assertTrue(cell.roofNote().contains("at the int8 roof"), cell.roofNote());
            assertTrue(!Roofline.UNRELIABLE.equals(cell.rooflineClass()) && cell.flopsPercentOfPeak() != null, cell.classReason());
            assertEquals(cell.roofFlopsPerSecond() / peaks.memoryRoofBytesPerSecond(), cell.ridgeFlopsPerByte(), 1e-9,
                    "the ridge of the cell's roof over the machine's memory roof");
        }
    }
}
