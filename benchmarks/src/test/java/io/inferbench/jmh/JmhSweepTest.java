package io.inferbench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.cli.Settings;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.results.CellResult;
import io.inferbench.results.Json;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.sweep.SweepOptions;
import io.inferbench.sweep.SweepRunner;
import io.inferbench.sweep.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real thing on a minimal sweep: JMH, forked JVMs, the built-in model, run.json and jmh.json. */
class JmhSweepTest {
    @TempDir
    Path results;

    @Test
    void minimalSweepWritesEveryCellWithOrderedPercentilesAndItsHistogram() throws IOException {
        Properties p = TestOptions.minimal(results);
        p.setProperty("bench.warmup", "3");
        p.setProperty("bench.iterations", "30");
        p.setProperty("bench.jvmArgs", "-Xmx512m");
        SweepOptions options = Settings.sweep(p);
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        SweepRunner.Outcome outcome = new SweepRunner(options, new JmhCellExecutor(options),
                new PrintStream(console, true, StandardCharsets.UTF_8)).run(null, "test");

        RunResult run = RunStore.readRun(outcome.store().runFile());
        assertEquals(RunResult.SCHEMA_VERSION, run.schemaVersion());
        assertEquals(4, run.cells().size(), console.toString(StandardCharsets.UTF_8));
        for (CellResult cell : run.cells()) {
            assertTrue(cell.measured(), cell.id() + ": " + cell.error());
            assertEquals(30, cell.measuredPasses());
            assertEquals(3, cell.warmupPasses());
            assertEquals(1, cell.coldStarts().size());
            assertTrue(cell.coldStarts().get(0).sessionCreateMs() > 0);
            LatencySummary l = cell.latencyMs();
            assertTrue(l.p50Ms() > 0);
            assertTrue(l.p50Ms() <= l.p90Ms() && l.p90Ms() <= l.p95Ms() && l.p95Ms() <= l.p99Ms()
                    && l.p99Ms() <= l.p999Ms() && l.p999Ms() <= l.maxMs(), l.toString());
            assertEquals(l, LatencySummary.of(HistogramCodec.decode(cell.histogramNs())));
            assertEquals("CPUExecutionProvider", cell.executionProvider());
            assertEquals(1, cell.intraOpThreads());
            assertEquals(run.config().models().get(0).sha256(), cell.modelSha256());
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("# JMH version") || printed.contains("REMEMBER") || printed.contains("ms/op"),
                "JMH's own output stays off the console: " + printed);
        assertTrue(printed.contains("run 4 of 4") && printed.contains(RunStore.CONSOLE_LOG), printed);
        String log = Files.readString(outcome.store().consoleLog());
        assertEquals(4, log.split("# JMH version", -1).length - 1, "JMH's output of every cell is in console.log");
        assertTrue(log.contains("run 4 of 4"), "and so is every progress line");
        JsonNode jmh = Json.mapper().readTree(outcome.store().runDir().resolve(RunStore.JMH_FILE).toFile());
        assertEquals(4, jmh.size(), "one JMH result per cell");
        assertEquals("ss", jmh.get(0).get("mode").asText());
    }
}
