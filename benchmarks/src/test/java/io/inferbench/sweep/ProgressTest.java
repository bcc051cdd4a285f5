package io.inferbench.sweep;

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
    private static final int PASSES = 10 + 40 + 1;
    private static final double OVERHEAD_S = 1.2;

    @TempDir
    Path dir;

    /** The default sweep's shape: 2 engines x seq 64/256/512 x batch 1..8, three rounds. */
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
            Path.of("..", "results", "examples", "cpu-tiny-default", "run.json")).cells().stream()
            .collect(Collectors.toMap(CellResult::id, c -> c.latencyMs().meanMs()));

    /** The cost model: what each cell's pass really took on the build machine. */
    private static double passMs(Cell cell) {
        return MEASURED_PASS_MS.get(cell.id());
    }

    private static double wallSeconds(Cell cell) {
        return OVERHEAD_S + PASSES * passMs(cell) / 1000;
    }

    /**
     * At run 10 of 144 the old estimate (mean of the runs so far x runs left) saw only seq-64 cells of one engine and
     * said well under the truth. With preflight's probes at the smallest and largest shape, the estimate is within 25% of
     * the time the remaining runs take, where each pass costs what it cost in the committed default sweep.
     */
    @Test
    void theEstimateAtRunTenPricesTheLargeCellsStillToCome() {
        List<Cell> plan = defaultPlan();
        List<Cell> runs = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            runs.addAll(plan);
        }
        EtaEstimator eta = new EtaEstimator(PASSES);
        for (String backend : List.of("onnxruntime", "djl")) {
            Cell smallest = new Cell(backend, "cpu", "tiny", 64, 1);
            Cell largest = new Cell(backend, "cpu", "tiny", 512, 8);
            eta.probe(new SeriesKey.EngineModel(backend, "cpu", "tiny"), 64, passMs(smallest));
            eta.probe(new SeriesKey.EngineModel(backend, "cpu", "tiny"), 512 * 8, passMs(largest));
        }
        double doneSeconds = 0;
        for (int i = 0; i < 10; i++) {
            eta.record(runs.get(i), wallSeconds(runs.get(i)), passMs(runs.get(i)));
            doneSeconds += wallSeconds(runs.get(i));
        }
        List<Cell> remaining = runs.subList(10, runs.size());
        double truth = remaining.stream().mapToDouble(ProgressTest::wallSeconds).sum();
        double estimate = eta.secondsLeft(remaining);
        double naive = doneSeconds / 10 * remaining.size();

        System.out.printf("ETA at run 10 of 144: estimate %.0f s, naive %.0f s, truth %.0f s%n", estimate, naive, truth);
        assertEquals(truth, estimate, 0.25 * truth, "estimate " + estimate + " s, truth " + truth + " s");
        assertTrue(naive < 0.75 * truth, "the naive estimate (" + naive + " s of " + truth + " s) is the failure this replaces");
    }

    @Test
    void nothingIsEstimatedBeforeTheFirstRunHasFinished() {
        EtaEstimator eta = new EtaEstimator(PASSES);
        eta.probe(new SeriesKey.EngineModel("onnxruntime", "cpu", "tiny"), 64, 0.3);
        assertTrue(Double.isNaN(eta.secondsLeft(defaultPlan())));
    }

    @Test
    void aCellAlreadyRunCostsWhatItCostBefore() {
        EtaEstimator eta = new EtaEstimator(PASSES);
        Cell cell = new Cell("onnxruntime", "cpu", "tiny", 256, 4);
        eta.record(cell, OVERHEAD_S + PASSES * 7.0 / 1000, 7.0);
        assertEquals(7.0, eta.passMs(cell), 1e-12);
        assertEquals(OVERHEAD_S + PASSES * 7.0 / 1000, eta.secondsLeft(List.of(cell)), 1e-9);
    }

    /** 144 fork runs in a log: a bounded number of lines on the console, every one of them in console.log. */
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
