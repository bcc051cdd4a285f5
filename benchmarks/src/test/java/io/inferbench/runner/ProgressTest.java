package io.inferbench.runner;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The progress line's count on the console, and an estimate of the time left that sees the large cells coming. */
class ProgressTest {
    /** A fork JVM's time outside its cells: start-up, engine load, session creation, exit. */
    private static final double JVM_OVERHEAD_S = 1.5;

    @TempDir
    Path dir;

    /** The default sweep's shape: 2 engines x seq 64/256/512 x batch 1..8. */
    private static List<Cell> defaultPlan() {
        List<Cell> plan = new ArrayList<>();
        for (String backend : List.of("onnxruntime", "djl")) {
            for (int seq : List.of(64, 256, 512)) {
                for (int batch = 1; batch <= 8; batch++) {
                    plan.add(new Cell(backend, "cpu", "tiny", seq, batch));
                }
            }
        }
        return plan;
    }

    /** The committed default sweep (both engines, made on the 2-core build machine): its mean pass per cell. */
    private static final Map<String, Double> MEASURED_PASS_MS = RunStore.readRun(
            Path.of("..", "results", "examples", "cpu-default", "run.json")).cells().stream()
            .collect(Collectors.toMap(CellResult::id, c -> c.latencyMs().meanMs()));

    private static double passMs(Cell cell) {
        return MEASURED_PASS_MS.get(cell.id());
    }

    /**
     * The cost model: a cheap cell runs until its minimum times (0.1 s of warm-up, 0.2 s of measurement), a costly one
     * about 30 passes, plus JMH's run around it.
     */
    private static double cellSeconds(Cell cell) {
        return 0.05 + Math.max(0.3, 0.1 + 30 * passMs(cell) / 1000);
    }

    /**
     * At cell 10 of 144, in the seeded orders of a real sweep, only some of one engine's cells have run. With preflight's
     * probes at the smallest and the largest shape, the estimate is within 25% of the time the rest takes.
     */
    @Test
    void theEstimateAtCellTenPricesTheLargeCellsStillToCome() {
        List<Cell> plan = defaultPlan();
        List<Cell> runs = new ArrayList<>();
        List<String> jvms = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            for (List<Cell> group : Cell.groups(plan, Isolation.MODEL)) {
                runs.addAll(Cell.order(group, 42, round));
                jvms.add(group.get(0).backend());
            }
        }
        EtaEstimator eta = new EtaEstimator();
        for (String backend : List.of("onnxruntime", "djl")) {
            Cell smallest = new Cell(backend, "cpu", "tiny", 64, 1);
            Cell largest = new Cell(backend, "cpu", "tiny", 512, 8);
            eta.probe(new SeriesKey.EngineModel(backend, "cpu", "tiny"), 64, passMs(smallest));
            eta.probe(new SeriesKey.EngineModel(backend, "cpu", "tiny"), 512 * 8, passMs(largest));
        }
        for (int i = 0; i < 10; i++) {
            eta.cellFinished(runs.get(i), cellSeconds(runs.get(i)), passMs(runs.get(i)));
        }
        eta.jvmOverhead("onnxruntime", JVM_OVERHEAD_S);
        List<Cell> remaining = runs.subList(10, runs.size());
        List<String> remainingJvms = jvms.subList(1, jvms.size());
        double truth = remaining.stream().mapToDouble(ProgressTest::cellSeconds).sum() + remainingJvms.size() * JVM_OVERHEAD_S;
        double estimate = eta.secondsLeft(remaining, remainingJvms);

        System.out.printf("ETA at cell 10 of 144: estimate %.0f s, truth %.0f s%n", estimate, truth);
        assertEquals(truth, estimate, 0.25 * truth, "estimate " + estimate + " s, truth " + truth + " s");
    }

    @Test
    void nothingIsEstimatedBeforeTheFirstCellHasFinished() {
        EtaEstimator eta = new EtaEstimator();
        eta.probe(new SeriesKey.EngineModel("onnxruntime", "cpu", "tiny"), 64, 0.3);
        assertTrue(Double.isNaN(eta.secondsLeft(defaultPlan(), List.of("onnxruntime"))));
    }

    @Test
    void aCellAlreadyRunCostsWhatItCostBeforeAndEachJvmItsOverhead() {
        EtaEstimator eta = new EtaEstimator();
        Cell cell = new Cell("onnxruntime", "cpu", "tiny", 256, 4);
        eta.cellFinished(cell, 0.7, 7.0);
        eta.jvmOverhead("onnxruntime", 2.0);
        assertEquals(7.0, eta.passMs(cell), 1e-12);
        assertEquals(0.7 + 2 * 2.0, eta.secondsLeft(List.of(cell), List.of("onnxruntime", "onnxruntime")), 1e-9);
    }

    /** 144 cell runs in a log: a bounded number of lines on the console, every one of them in console.log. */
    @Test
    void aLongSweepInALogPrintsABoundedNumberOfLinesAndLogsThemAll() throws IOException {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Path log = dir.resolve("console.log");
        Progress progress = new Progress(new PrintStream(console, true, StandardCharsets.UTF_8), false, log, 144);
        for (int step = 1; step <= 144; step++) {
            progress.runFinished(step, "cell " + step, step == 77, 10);
        }
        List<String> lines = console.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.size() <= Progress.LOGGED_LINES + 3, lines.size() + " lines");
        assertTrue(lines.get(0).contains("run 1 of 144"), lines.get(0));
        assertTrue(lines.get(lines.size() - 1).contains("run 144 of 144"), lines.get(lines.size() - 1));
        assertTrue(lines.stream().anyMatch(l -> l.contains("run 77 of 144")), "a failure always gets its line");
        assertTrue(lines.stream().allMatch(l -> l.contains("elapsed") && l.contains("left")), "elapsed and time left on each");
        assertEquals(144, Files.readAllLines(log).size(), "console.log has every run");
    }

    /** On a terminal the status line is rewritten in place: the whole sweep takes one line. */
    @Test
    void onATerminalTheStatusLineIsRewrittenInPlace() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Progress progress = new Progress(new PrintStream(console, true, StandardCharsets.UTF_8), true, null, 144);
        for (int step = 1; step <= 144; step++) {
            progress.runFinished(step, "cell " + step, false, 10);
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        assertEquals(1, printed.chars().filter(c -> c == '\n').count(), "one line in the end");
        assertEquals(144, printed.chars().filter(c -> c == '\r').count(), "rewritten once per fork run");
    }
}
