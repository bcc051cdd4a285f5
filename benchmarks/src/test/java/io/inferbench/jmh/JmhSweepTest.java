package io.inferbench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.cli.Settings;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.pipeline.Pipeline;
import io.inferbench.pipeline.TestRuns;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.Json;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.runner.ForkEvent;
import io.inferbench.runner.JvmForkExecutor;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real thing on a minimal sweep: fork JVMs launched by the sweep, JMH inside them, the built-in model, run.json and
 * jmh.json; once with fixed counts, once with the warm-up and stop rules, once with a JVM per cell.
 */
class JmhSweepTest {
    @TempDir
    Path results;

    @Test
    void minimalSweepWritesEveryCellWithOrderedPercentilesAndItsHistogram() throws Exception {
        Properties p = TestOptions.minimal(results);
        p.setProperty("bench.warmup", "3");
        p.setProperty("bench.iterations", "30");
        p.setProperty("bench.jvmArgs", "-Xmx512m");
        SweepOptions options = Settings.sweep(p);
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        Pipeline.Outcome outcome = TestRuns.sweep(options, forks(),
                new PrintStream(console, true, StandardCharsets.UTF_8));

        RunResult run = RunStore.readRun(outcome.store().runFile());
        assertEquals(RunResult.SCHEMA_VERSION, run.schemaVersion());
        assertEquals(4, run.cells().size(), console.toString(StandardCharsets.UTF_8));
        for (CellResult cell : run.cells()) {
            assertTrue(cell.measured(), cell.id() + ": " + cell.error());
            assertEquals(30, cell.measuredPasses());
            assertEquals(3, cell.warmupPasses());
            assertNull(cell.coldStarts(), "one JVM for the model: its cold start is the JVM's");
            LatencySummary l = cell.latencyMs();
            assertTrue(l.p50Ms() > 0);
            assertTrue(l.p50Ms() <= l.p90Ms() && l.p90Ms() <= l.p95Ms() && l.p95Ms() <= l.p99Ms()
                    && l.p99Ms() <= l.p999Ms() && l.p999Ms() <= l.maxMs(), l.toString());
            assertEquals(l, LatencySummary.of(HistogramCodec.decode(cell.histogramNs())));
            assertEquals("CPUExecutionProvider", cell.executionProvider());
            assertEquals(1, cell.intraOpThreads());
            assertEquals(run.config().plan().models().get(0).sha256(), cell.modelSha256());
            var fork = cell.forkRuns().get(0);
            assertTrue(fork.memory() != null && fork.memory().peakRssMb() >= fork.memory().rssEndMb()
                    && fork.memory().rssStartMb() > 10 && fork.memory().heapUsedMb() > 0, "the cell's memory: " + fork.memory());
            assertEquals(io.inferbench.probe.MemoryUse.SINCE_CELL, fork.memory().peakSince(), "the peak was reset as the cell began");
            // 30 passes take a few ms, under one step of the process's CPU clock (10 ms on Linux): read, maybe 0.
            assertTrue(fork.measurement().cpu().processCpuMs() != null && fork.measurement().cpu().processCpuMs() >= 0,
                    "where the CPU went: " + fork.measurement().cpu());
            var energy = fork.measurement().energy();
            assertTrue(energy.joules() != null ? energy.joules() > 0 : energy.unavailable() != null,
                    "energy, or why there is none: " + energy);
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("# JMH version") || printed.contains("REMEMBER") || printed.contains("ms/op"),
                "JMH's own output stays off the console: " + printed);
        assertTrue(printed.contains("run 4 of 4") && printed.contains(RunStore.CONSOLE_LOG), printed);
        String log = Files.readString(outcome.store().consoleLog());
        assertEquals(4, log.split("# JMH version", -1).length - 1, "JMH's output of every cell is in console.log");
        assertTrue(log.contains("run 4 of 4"), "and so is every progress line");
        assertFalse(log.contains(ForkEvent.PREFIX), "the forks' events are the sweep's, not the log's");
        JsonNode jmh = Json.mapper().readTree(outcome.store().runDir().resolve(RunStore.JMH_FILE).toFile());
        assertEquals(4, jmh.size(), "one JMH result per cell");
        assertEquals("ss", jmh.get(0).get("mode").asText());
        RunResult stored = RunStore.readRun(outcome.store().runFile());
        assertEquals(1, stored.forkJvms().size(), "one fork JVM for the model");
        ForkJvm jvm = stored.forkJvms().get(0);
        assertEquals(0, jvm.exitCode());
        assertTrue(jvm.jvmStartMs() > 0 && jvm.engineLoadMs() > 0 && jvm.sessionCreateMs() > 0 && jvm.firstInferenceMs() > 0,
                jvm.toString());
        assertTrue(jvm.sessionRssMb() != null && jvm.sessionRssMb() > 0, "what session creation added: " + jvm);
        assertTrue(jvm.pid() != ProcessHandle.current().pid(), "a JVM of its own");
    }

    @Test
    void untilSteadyAndPreciseEachForkRecordsWhyItStopped() throws Exception {
        Properties p = TestOptions.minimal(results);
        p.remove("bench.warmup");
        p.remove("bench.iterations");
        p.setProperty("bench.forks", "2");
        p.setProperty("bench.batch", "1");
        p.setProperty("bench.jvmArgs", "-Xmx512m");
        SweepOptions options = Settings.sweep(p);
        Pipeline.Outcome outcome = TestRuns.sweep(options, forks(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        RunResult stored = RunStore.readRun(outcome.store().runFile());
        assertEquals(2, stored.forkJvms().size());
        for (CellResult cell : stored.cells()) {
            assertTrue(cell.measured(), cell.error());
            assertEquals(2, cell.forkRuns().size());
            for (CellFork fork : cell.forkRuns()) {
                assertTrue(fork.warmup().passes() >= 2, "two windows of at least one pass: " + fork.warmup());
                assertTrue(fork.warmup().wallMs() >= 100, "the minimum warm-up: " + fork.warmup());
                assertTrue(fork.measurement().wallMs() >= 750, "the minimum measurement: " + fork.measurement());
                assertTrue(fork.measurement().passesMs() <= fork.measurement().wallMs());
                if (fork.measurement().end() == MeasureEnd.PRECISE) {
                    assertTrue(fork.measurement().p50HalfWidthPercent() <= 2.0, fork.measurement().toString());
                }
                assertTrue(fork.firstPassMs() > 0);
            }
        }
        assertTrue(stored.timing().sweepSeconds() > 0 && stored.timing().measuredPassesSeconds() > 0, stored.timing().toString());
        assertTrue(Files.readString(outcome.store().runDir().resolve("report.md")).contains("## Where the wall time went"),
                "the report is rendered once, after the time account is closed, with its wall-time section");
        assertEquals("model", stored.config().forkJvms().isolation());
        assertNull(stored.config().rules().measuredPasses());
    }

    @Test
    void cellIsolationStartsAJvmPerCell() throws Exception {
        Properties p = TestOptions.minimal(results);
        p.setProperty("bench.isolation", "cell");
        p.setProperty("bench.iterations", "10");
        p.setProperty("bench.seq", "8");
        p.setProperty("bench.jvmArgs", "-Xmx512m");
        SweepOptions options = Settings.sweep(p);
        Pipeline.Outcome outcome = TestRuns.sweep(options, forks(),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        RunResult stored = RunStore.readRun(outcome.store().runFile());
        assertEquals(2, stored.forkJvms().size(), "one JVM per cell");
        assertEquals(2, stored.forkJvms().stream().map(ForkJvm::pid).distinct().count());
        for (CellResult cell : stored.cells()) {
            assertTrue(cell.measured(), cell.error());
            assertEquals(1, cell.coldStarts().size());
            assertTrue(cell.coldStarts().get(0).sessionCreateMs() > 0);
        }
    }

    private static JvmForkExecutor forks() {
        return new JvmForkExecutor(ForkJvmMain.class.getName(), "-Xmx512m", java.util.Map.of(), null);
    }
}
