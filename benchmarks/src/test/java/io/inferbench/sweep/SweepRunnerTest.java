package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.backend.TestModels;
import io.inferbench.cli.Settings;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sweep's bookkeeping, run in-process: fail-fast preflight, failed-cell isolation, per-cell persistence. */
class SweepRunnerTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(console, true, StandardCharsets.UTF_8);

    /** An executor that must never be reached: bad input has to be caught before any measurement. */
    private static final CellExecutor NEVER = (cell, forkDir, runDir) -> {
        throw new AssertionError("measured " + cell + " although the set-up was invalid");
    };

    private BenchmarkException refusedBeforeMeasuring(Properties p) {
        SweepOptions options = Settings.sweep(p);
        return assertThrows(BenchmarkException.class, () -> new SweepRunner(options, NEVER, log).run(null, "test"));
    }

    @Test
    void unwritableResultsFolderFailsBeforeMeasuring() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder");
        Properties p = TestOptions.minimal(file.resolve("results"));
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.contains("is not writable"), message);
        assertTrue(message.contains("-Dbench.results"), message);
    }

    @Test
    void modelWithoutInputIdsFailsBeforeMeasuring() throws IOException {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", TestModels.pixelValues(dir).toString());
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.startsWith("Preflight failed for onnxruntime on cpu"), message);
        assertTrue(message.contains("pixel_values"), message);
    }

    @Test
    void corruptModelFailsBeforeMeasuring() throws IOException {
        Path corrupt = Files.write(dir.resolve("corrupt.onnx"), new byte[] {1, 2, 3, 4, 5});
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", corrupt.toString());
        assertTrue(refusedBeforeMeasuring(p).getMessage().contains("valid ONNX model"));
    }

    @Test
    void shapesAFixedModelCannotTakeFailBeforeMeasuring() throws IOException {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", TestModels.fixedShape(dir, 1, 8).toString());
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.contains("cannot take batch 2 x seqLen 8: the model's batch axis is fixed at 1"), message);
    }

    @Test
    void cudaOnTheCpuBuildFailsBeforeMeasuring() {
        org.junit.jupiter.api.Assumptions.assumeFalse(io.inferbench.backend.OnnxRuntimeBackend.cudaBuild());
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.device", "cuda");
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.contains("-Pgpu"), message);
    }

    @Test
    void aFailedCellKeepsEveryOtherCellAndEachCellIsPersistedBeforeTheNext() {
        SweepOptions options = Settings.sweep(TestOptions.minimal(dir.resolve("results")));
        InProcessCellExecutor real = new InProcessCellExecutor(options);
        AtomicInteger calls = new AtomicInteger();
        CellExecutor flaky = (cell, forkDir, runDir) -> {
            int index = calls.getAndIncrement();
            // The run file already holds every earlier cell: a crash now would lose nothing measured.
            assertEquals(index, RunStore.readRun(runDir.resolve(RunStore.RUN_FILE)).cells().size());
            if (index == 1) {
                throw new IllegalStateException("simulated fork crash");
            }
            if (index == 2) {
                Files.writeString(forkDir.resolve("fork-1.error"), "simulated engine failure\ntrace");
                return;
            }
            real.execute(cell, forkDir, runDir);
        };
        SweepRunner.Outcome outcome = new SweepRunner(options, flaky, log).run(null, "test");

        RunResult stored = RunStore.readRun(outcome.store().runFile());
        assertEquals(outcome.run(), stored);
        List<CellResult> cells = stored.cells();
        assertEquals(4, cells.size());
        assertEquals(2, outcome.failedCells());
        assertTrue(cells.get(0).measured());
        assertFalse(cells.get(1).measured());
        assertTrue(cells.get(1).error().contains("simulated fork crash"), cells.get(1).error());
        assertTrue(cells.get(2).error().contains("simulated engine failure"), cells.get(2).error());
        assertTrue(cells.get(3).measured());
        assertTrue(stored.finishedAt() != null);
        String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("sweep of 4 cells"), printed);
        assertTrue(printed.contains("run 4 of 4"), printed);
        assertTrue(printed.contains("FAILED"), printed);
    }

    @Test
    void forksAreInterleavedAcrossTheSweepAndKeptPerFork() {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.forks", "2");
        p.setProperty("bench.iterations", "10");
        SweepOptions options = Settings.sweep(p);
        InProcessCellExecutor real = new InProcessCellExecutor(options);
        List<Cell> order = new java.util.ArrayList<>();
        CellExecutor recording = (cell, forkDir, runDir) -> {
            order.add(cell);
            // In-process "forks" share a pid; give each its own file, as separate JVMs would.
            Path fork = Files.createDirectories(forkDir.resolve("round" + order.size()));
            real.execute(cell, fork, runDir);
            try (var files = Files.list(fork)) {
                for (Path f : files.toList()) {
                    Files.move(f, forkDir.resolve("fork-" + order.size() + ".json"));
                }
            }
            Files.delete(fork);
        };
        SweepRunner.Outcome outcome = new SweepRunner(options, recording, log).run(null, "test");

        List<Cell> plan = Cell.plan(options);
        List<Cell> expected = new java.util.ArrayList<>(plan);
        expected.addAll(plan);
        assertEquals(expected, order, "round 1 over every cell, then round 2");
        for (CellResult cell : outcome.run().cells()) {
            assertTrue(cell.measured(), cell.error());
            assertEquals(2, cell.forks());
            assertEquals(2, cell.forkHistogramsNs().size());
            assertEquals(20, cell.measuredPasses());
            assertEquals(2, cell.coldStarts().size());
        }
    }
}
