package io.inferbench.probe;

import io.inferbench.BenchmarkException;
import io.inferbench.measure.CellLoop;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GPU sampler against recorded nvidia-smi outputs, and end to end against a fake nvidia-smi that streams known
 * values ({@code nvidia-smi/fake-nvidia-smi.sh}): nothing here needs a GPU, and nothing here proves the figures on one.
 */
class GpuSamplerTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    private static List<GpuSample> recorded(String name) throws IOException, URISyntaxException {
        List<String> lines = Files.readAllLines(Path.of(GpuSamplerTest.class.getResource("/nvidia-smi/" + name).toURI()));
        Map<String, Integer> columns = GpuSample.header(lines.get(0));
        assertNotNull(columns, "a header: " + lines.get(0));
        List<GpuSample> samples = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            assertNull(GpuSample.header(line), "a data line is no header: " + line);
            GpuSample s = GpuSample.parse(columns, line, UTC);
            assertNotNull(s, line);
            samples.add(s);
        }
        return samples;
    }

    /** Recorded outputs, with units (--format=csv), parse by their header: each field where the query had it. */
    @Test
    void recordedOutputsParseByTheirHeader() throws Exception {
        List<GpuSample> fastai = recorded("fastai-gpu-monitoring.csv");
        assertEquals(3, fastai.size());
        assertEquals(100.0, fastai.get(0).utilisationPercent());
        assertEquals(9941.0, fastai.get(0).memoryUsedMb());
        assertEquals(10989.0, fastai.get(0).memoryTotalMb());
        assertNull(fastai.get(0).powerWatts(), "that query had no power.draw");
        assertEquals(1001, fastai.get(1).epochMs() - fastai.get(0).epochMs(), "timestamps to the millisecond");

        List<GpuSample> power = recorded("nvidia-power-and-clocks.csv");
        assertEquals(List.of(208.36, 249.62, 205.51), power.stream().map(GpuSample::powerWatts).toList());
        assertEquals(List.of(1545.0, 1560.0, 1545.0), power.stream().map(GpuSample::smClockMhz).toList(),
                "clocks.current.sm, not clocks.current.graphics");
        assertNull(power.get(0).utilisationPercent());

        List<GpuSample> three = recorded("three-gpus.csv");
        assertEquals(List.of(0, 1, 2), three.stream().map(GpuSample::index).toList());
        assertEquals(111.50, three.get(2).powerWatts());
    }

    @Test
    void nvidiaSmisGapsAndErrorsAreNoNumbers() {
        Map<String, Integer> columns = GpuSample.header("timestamp, index, utilization.gpu [%], power.draw [W], "
                + "clocks.current.sm [MHz], clocks_event_reasons.active");
        GpuSample gaps = GpuSample.parse(columns, "2026/12/01 09:00:00.000, 0, [N/A], [Not Supported], 1410, 0x0000000000000044", UTC);
        assertNull(gaps.utilisationPercent());
        assertNull(gaps.powerWatts());
        assertEquals(0x44L, gaps.throttleMask(), "the newer name of the throttle reasons is read too");
        assertEquals(List.of("SW power cap", "HW thermal slowdown"), GpuSample.reasons(gaps.throttleMask()));
        assertEquals(List.of("GPU idle", "bit 0x200"), GpuSample.reasons(0x201));
        assertNull(GpuSample.parse(columns, "Field \"x\" is not a valid field to query.", UTC));
        assertNull(GpuSample.parse(columns, "2026/12/01 09:00:00.000, 0, 40, 100", UTC), "a line with too few fields");
        assertNull(GpuSample.header("Failed to initialize NVML: Driver/library version mismatch"));
    }

    /** The figures of a measurement's samples: means, maxima, every throttle reason, and energy as mean power x time. */
    @Test
    void aMeasurementsFiguresComeFromItsSamples() {
        List<GpuSample> within = List.of(new GpuSample(1L, 0, 40.0, 1000.0, 81559.0, 100.0, 1980.0, 0L),
                new GpuSample(2L, 0, 60.0, 1200.0, 81559.0, 200.0, 1755.0, 4L),
                new GpuSample(3L, 0, 50.0, 1100.0, 81559.0, 150.0, 1800.0, 0x40L));
        GpuUse use = GpuSampler.of(within, 300.0, 60, 8, "fake", null);
        assertEquals(3, use.samples());
        assertEquals(50.0, use.utilisationMeanPercent(), 1e-9);
        assertEquals(60.0, use.utilisationMaxPercent());
        assertEquals(1200.0, use.memoryUsedMaxMb());
        assertEquals(150.0, use.meanWatts(), 1e-9);
        assertEquals(200.0, use.maxWatts());
        assertEquals(45.0, use.joules(), 1e-9, "150 W for 0.3 s");
        assertEquals(0.75, use.joulesPerPass(), 1e-9);
        assertEquals(45.0 / 480 * 1000, use.joulesPer1000Samples(), 1e-9);
        assertEquals(1755.0, use.smClockMinMhz());
        assertEquals(List.of("SW power cap", "HW thermal slowdown"), use.throttleReasons());
        GpuUse none = GpuSampler.of(List.of(), 50.0, 10, 1, "fake", null);
        assertTrue(none.unavailable().startsWith("no sample within the measurement's 50 ms"), none.unavailable());
        assertNull(none.joules());
    }

    private static Path fake(Path dir) throws IOException {
        Path script = dir.resolve("nvidia-smi");
        try (InputStream in = GpuSamplerTest.class.getResourceAsStream("/nvidia-smi/fake-nvidia-smi.sh")) {
            Files.copy(in, script);
        }
        assertTrue(script.toFile().setExecutable(true));
        return script;
    }

    /**
     * End to end: a cell's measurement of about a second with the fake nvidia-smi streaming at 10 Hz. The outcome holds
     * the samples taken within it, and its energy is exactly their mean power times the measurement's wall time.
     */
    @Test
    void theFakeSamplerMeasuresACellEndToEnd(@TempDir Path dir) throws IOException {
        try (GpuSampler sampler = GpuSampler.start(fake(dir).toString(), 0)) {
            assertNull(sampler.unavailable(), "the first sample arrived");
            MeasurePolicy policy = new MeasurePolicy(WarmupPolicy.untilSteady(0.05, 5000), new StopPolicy(null, 1e-9, 0.95, 2, 1000, 1000));
            PassRecorder recorder = new PassRecorder();
            CellLoop loop = new CellLoop(recorder, policy, NanoClock.SYSTEM, () -> -1, List.of(sampler), 1, 4);
            MeasureOutcome outcome = loop.measure(() -> {
                long end = System.nanoTime() + 2_000_000;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                return 1;
            });
            GpuUse gpu = outcome.gpu();
            assertNull(gpu.unavailable(), gpu.toString());
            assertTrue(gpu.samples() >= 5 && gpu.samples() <= 12, "about ten samples in a second at 10 Hz: " + gpu.samples());
            assertTrue(gpu.meanWatts() >= 100 && gpu.meanWatts() <= 200, gpu.toString());
            assertEquals(gpu.meanWatts() * outcome.wallMs() / 1000, gpu.joules(), 1e-9, "joules = mean watts x measured time");
            assertEquals(gpu.joules() / outcome.passes(), gpu.joulesPerPass(), 1e-12);
            assertEquals(gpu.joules() / (outcome.passes() * 4.0) * 1000, gpu.joulesPer1000Samples(), 1e-9);
            assertEquals(81559.0, gpu.memoryTotalMb());
            assertTrue(gpu.memoryUsedMaxMb() == 1000 || gpu.memoryUsedMaxMb() == 1200);
            assertEquals(List.of("SW power cap"), gpu.throttleReasons(), "the odd samples report 0x4");
            assertEquals(512.0, sampler.processMemoryMb(ProcessHandle.current().pid()), "this JVM's line of --query-compute-apps");
            assertNull(sampler.processMemoryMb(-1), "a process the driver does not list");
        }
    }

    /** A sampler that cannot run says why in every measurement; the cell's latency does not depend on it. */
    @Test
    void aSamplerThatCannotRunSaysWhy(@TempDir Path dir) {
        try (GpuSampler missing = GpuSampler.start(dir.resolve("no-such-nvidia-smi").toString(), 0)) {
            assertTrue(missing.unavailable().contains("could not be started") && missing.unavailable().contains("-Dbench.nvidiaSmi"),
                    missing.unavailable());
            GpuUse use = missing.use(System.nanoTime() - 1_000_000, System.nanoTime(), 10, 1);
            assertEquals(missing.unavailable(), use.unavailable());
            assertNull(missing.processMemoryMb(ProcessHandle.current().pid()));
        }
    }

    @Test
    void aDriverThatRefusesTheQueryIsQuoted(@TempDir Path dir) throws IOException {
        Path script = fake(dir);
        Path failing = dir.resolve("failing-nvidia-smi");
        Files.writeString(failing, "#!/bin/sh\nFAKE_NVIDIA_SMI_FAIL=1 exec " + script + " \"$@\"\n");
        assertTrue(failing.toFile().setExecutable(true));
        try (GpuSampler sampler = GpuSampler.start(failing.toString(), 0)) {
            assertTrue(sampler.unavailable().contains("is not a valid field to query"), sampler.unavailable());
        }
    }

    @Test
    void aGivenNvidiaSmiMustBeAnExecutableFile(@TempDir Path dir) throws IOException {
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> GpuSampler.checkExecutable(dir.resolve("nope").toString()));
        assertTrue(e.getMessage().contains("-Dbench.nvidiaSmi=") && e.getMessage().contains("/usr/bin/nvidia-smi"), e.getMessage());
        GpuSampler.checkExecutable(fake(dir).toString());
    }
}
