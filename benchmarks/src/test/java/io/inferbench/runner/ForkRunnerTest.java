package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.Settings;
import io.inferbench.engine.TestModels;
import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.WarmupEnd;
import io.inferbench.pipeline.Pipeline;
import io.inferbench.pipeline.TestRuns;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.DepartedFork;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.sweep.ForwardKind;
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
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sweep's bookkeeping, with forks run in-process: fail-fast preflight, failed-cell and crashed-fork isolation,
 * persistence after every fork JVM, one JVM per model and round with a seeded order of its own, and cell isolation.
 */
class ForkRunnerTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(console, true, StandardCharsets.UTF_8);

    /** An executor that must never be reached: bad input has to be caught before any measurement. */
    private static final ForkExecutor NEVER = (plan, planFile, consoleLog, events) -> {
        throw new AssertionError("measured " + plan.cellsInOrder() + " although the set-up was invalid");
    };

    private BenchmarkException refusedBeforeMeasuring(Properties p) {
        SweepOptions options = Settings.sweep(p);
        return assertThrows(BenchmarkException.class, () -> TestRuns.sweep(options, NEVER, log));
    }

    @Test
    void unwritableResultsFolderFailsBeforeMeasuring() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "not a folder");
        Properties p = TestOptions.minimal(file.resolve("results"));
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.contains("is not writable"), message);
        assertTrue(message.contains("-Dbench.results"), message);
    }

    @Test
    void lengthsForAModelWithoutASweptAxisFailBeforeMeasuring() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", TestModels.pixelValues(dir).toString());
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.startsWith("Preflight failed for onnxruntime on cpu"), message);
        assertTrue(message.contains("no axis for the sweep's lengths to bind"), message);
    }

    @Test
    void corruptModelFailsBeforeMeasuring() throws Exception {
        Path corrupt = Files.write(dir.resolve("corrupt.onnx"), new byte[] {1, 2, 3, 4, 5});
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", corrupt.toString());
        assertTrue(refusedBeforeMeasuring(p).getMessage().contains("valid ONNX model"));
    }

    @Test
    void shapesAFixedModelCannotTakeFailBeforeMeasuring() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", TestModels.fixedShape(dir, 1, 8).toString());
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.contains("cannot take batch 2 x seqLen 8: the model's batch axis is fixed at 1"), message);
    }

    @Test
    void cudaOnTheCpuBuildFailsBeforeMeasuring() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(io.inferbench.engine.onnxruntime.OnnxRuntimeEngine.cudaBuild());
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.device", "cuda");
        String message = refusedBeforeMeasuring(p).getMessage();
        assertTrue(message.contains("-Pgpu"), message);
    }

    @Test
    void aFailedCellOrACrashedForkKeepsEveryOtherCellAndTheUnreachedCellsRunInAFreshJvm() throws Exception {
        SweepOptions options = Settings.sweep(TestOptions.minimal(dir.resolve("results")));
        List<Cell> order = Cell.order(Cell.plan(options, new ForwardKind()), options.rules().seed(), 1);
        Cell failing = order.get(1);
        Cell crashing = order.get(2);
        InProcessForkExecutor real = new InProcessForkExecutor(fork -> {
            for (Cell cell : fork.plan().cellsInOrder()) {
                CellTrial trial = fork.beginCell(cell.seqLen(), cell.batch());
                if (cell.equals(failing)) {
                    trial.end(new IllegalStateException("simulated engine failure"));
                    continue;
                }
                trial.run(PassRecorder.Phase.WARMUP);
                trial.run(PassRecorder.Phase.MEASUREMENT);
                trial.end(null);
            }
        });
        List<List<Cell>> launched = new ArrayList<>();
        ForkExecutor crashingFork = (plan, planFile, consoleLog, events) -> {
            launched.add(plan.cellsInOrder());
            if (launched.size() == 1) {
                // The first JVM measures two cells (one fails inside it), then dies while measuring the third.
                ForkPlan head = new ForkPlan(plan.jvm(), plan.round(), plan.kind(), plan.backend(), plan.device(), plan.model(),
                        plan.cells().subList(0, 2), plan.session(), plan.policy(), plan.nvidiaSmi(), plan.jitCompilation());
                real.run(head, planFile, consoleLog, events);
                events.on(new ForkEvent.CellStarted(crashing.id()));
                return new ForkExecutor.ForkExit(4242, 134, System.currentTimeMillis(), "simulated crash: SIGSEGV in the engine");
            }
            // The run file already holds the first JVM's cells: a crash of the sweep now would lose nothing measured.
            RunResult sofar = RunStore.readRun(planFile.getParent().getParent().getParent().resolve(RunStore.RUN_FILE));
            assertEquals(3, sofar.cells().size());
            return real.run(plan, planFile, consoleLog, events);
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, crashingFork, log);

        assertEquals(List.of(order, List.of(order.get(3))), launched, "a fresh JVM for the one cell the crash left unreached");
        RunResult stored = RunStore.readRun(outcome.store().runFile());
        assertEquals(outcome.run(), stored);
        assertEquals(4, stored.cells().size());
        assertEquals(2, outcome.run().failedCells());
        assertTrue(cell(stored, order.get(0)).measured());
        assertTrue(cell(stored, failing).error().contains("simulated engine failure"), cell(stored, failing).error());
        String crashed = cell(stored, crashing).error();
        assertTrue(crashed.contains("killed by signal 6 (SIGABRT") && crashed.contains("while measuring this cell")
                && crashed.contains("SIGSEGV"), crashed);
        assertTrue(!crashed.contains(io.inferbench.results.CellResult.HARNESS_CRASH), "a dead JVM is not a bug of inferbench: " + crashed);
        assertTrue(cell(stored, order.get(3)).measured());
        assertEquals(2, stored.forkJvms().size());
        assertEquals(134, stored.forkJvms().get(0).exitCode());
        assertEquals(0, stored.forkJvms().get(1).exitCode());
        assertTrue(stored.finishedAt() != null);
        String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("sweep of 4 cells"), printed);
        assertTrue(printed.contains("run 4 of 4"), printed);
        assertTrue(printed.contains("FAILED"), printed);
    }

    @Test
    void aForkThatCannotOpenItsSessionFailsItsCellsOnceAndIsNotStartedAgain() throws Exception {
        SweepOptions options = Settings.sweep(TestOptions.minimal(dir.resolve("results")));
        List<Integer> launches = new ArrayList<>();
        ForkExecutor noSession = (plan, planFile, consoleLog, events) -> {
            launches.add(plan.cells().size());
            for (ForkPlan.PlannedCell cell : plan.cells()) {
                CellTrial.writeError(cell.outputDir(), plan, new IllegalStateException("simulated: no such device"), null);
            }
            events.on(new ForkEvent.OpenFailed("simulated: no such device"));
            return new ForkExecutor.ForkExit(4242, ForkRun.NO_SESSION, System.currentTimeMillis(), "");
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, noSession, log);
        assertEquals(List.of(4), launches);
        assertEquals(4, outcome.run().failedCells());
        for (CellResult cell : outcome.run().cells()) {
            assertEquals(1, cell.error().split("simulated: no such device", -1).length - 1, "said once: " + cell.error());
        }
    }

    @Test
    void aForkThatRunsNoneOfItsCellsIsNotStartedAgainAndAgain() throws Exception {
        SweepOptions options = Settings.sweep(TestOptions.minimal(dir.resolve("results")));
        List<Integer> launches = new ArrayList<>();
        ForkExecutor idle = (plan, planFile, consoleLog, events) -> {
            launches.add(plan.cells().size());
            events.on(new ForkEvent.Ready(System.currentTimeMillis(), 1, 1, 64.0));
            return new ForkExecutor.ForkExit(4242, 0, System.currentTimeMillis(), "simulated: the benchmark list was empty");
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, idle, log);
        assertEquals(List.of(4), launches, "one launch, not a loop");
        assertEquals(4, outcome.run().failedCells());
        assertTrue(outcome.run().cells().get(0).error().contains("ran none of its cells"), outcome.run().cells().get(0).error());
    }

    @Test
    void eachRoundIsOneJvmPerModelRunningItsCellsInASeededOrderOfItsOwn() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.forks", "2");
        p.setProperty("bench.iterations", "10");
        SweepOptions options = Settings.sweep(p);
        List<ForkPlan> plans = new ArrayList<>();
        InProcessForkExecutor real = new InProcessForkExecutor();
        ForkExecutor recording = (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            return real.run(plan, planFile, consoleLog, events);
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, recording, log);

        List<Cell> cells = Cell.plan(options, new ForwardKind());
        assertEquals(2, plans.size(), "one JVM per round");
        assertEquals(List.of(1, 2), plans.stream().map(ForkPlan::round).toList());
        assertEquals(Cell.order(cells, 42, 1), plans.get(0).cellsInOrder());
        assertEquals(Cell.order(cells, 42, 2), plans.get(1).cellsInOrder());
        assertNotEquals(plans.get(0).cellsInOrder(), plans.get(1).cellsInOrder(), "the rounds run the cells in other orders");
        for (CellResult cell : outcome.run().cells()) {
            assertTrue(cell.measured(), cell.error());
            assertEquals(2, cell.forks());
            assertEquals(2, cell.forkHistogramsNs().size());
            assertEquals(20, cell.measuredPasses());
            assertEquals(List.of(1, 2), cell.forkRuns().stream().map(CellFork::round).toList());
            for (CellFork fork : cell.forkRuns()) {
                Cell c = cells.stream().filter(x -> x.id().equals(cell.id())).findFirst().orElseThrow();
                assertEquals(plans.get(fork.round() - 1).cellsInOrder().indexOf(c), fork.positionInJvm());
                assertEquals(MeasureEnd.FIXED_COUNT, fork.measurement().end());
                assertEquals(10, fork.measurement().passes());
                assertEquals(WarmupEnd.FIXED_COUNT, fork.warmup().end());
                assertEquals(2, fork.warmup().passes());
            }
            assertNull(cell.coldStarts(), "a JVM's cold start is the JVM's, in forkJvms");
        }
        assertEquals(2, outcome.run().forkJvms().size());
        for (ForkJvm jvm : outcome.run().forkJvms()) {
            assertTrue(jvm.sessionCreateMs() > 0 && jvm.engineLoadMs() >= 0 && jvm.firstInferenceMs() > 0, jvm.toString());
            assertEquals(4, jvm.cells().size());
        }
    }

    @Test
    void cellsPerJvmCutsEachRoundsSeededOrderIntoFreshJvms() throws Exception {
        Properties p = twoRounds("bench.cellsPerJvm", "3");
        SweepOptions options = Settings.sweep(p);
        List<ForkPlan> plans = new ArrayList<>();
        Pipeline.Outcome outcome = recordingPlans(options, plans);

        List<Cell> cells = Cell.plan(options, new ForwardKind());
        assertEquals(List.of(3, 1, 3, 1), plans.stream().map(plan -> plan.cells().size()).toList(), "4 cells: 3, then 1, per round");
        for (int round = 1; round <= 2; round++) {
            List<Cell> ran = new ArrayList<>(plans.get(2 * round - 2).cellsInOrder());
            ran.addAll(plans.get(2 * round - 1).cellsInOrder());
            assertEquals(Cell.order(cells, 42, round), ran, "the round's seeded order, cut, not reshuffled");
        }
        for (CellResult cell : outcome.run().cells()) {
            assertTrue(cell.measured(), cell.error());
            assertTrue(cell.forkRuns().stream().allMatch(f -> f.positionInJvm() < 3), "no JVM ran more than 3 cells");
        }
        assertEquals(3, outcome.run().config().forkJvms().cellsPerJvm());
        assertEquals(4, outcome.run().forkJvms().size());
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("= 8 cell runs in 4 fork JVMs"));

        p.setProperty("bench.cellsPerJvm", "0");
        BenchmarkException refused = assertThrows(BenchmarkException.class, () -> Settings.sweep(p));
        assertTrue(refused.getMessage().contains("-Dbench.cellsPerJvm is the most cells one fork JVM runs"), refused.getMessage());
    }

    @Test
    void cellIsolationStartsOneJvmPerCellPerRoundAndKeepsEachCellsColdStart() throws Exception {
        SweepOptions options = Settings.sweep(twoRounds("bench.isolation", "cell"));
        List<ForkPlan> plans = new ArrayList<>();
        Pipeline.Outcome outcome = recordingPlans(options, plans);

        assertEquals(8, plans.size(), "4 cells x 2 rounds");
        assertTrue(plans.stream().allMatch(plan -> plan.cells().size() == 1));
        List<Cell> expected = new ArrayList<>(Cell.plan(options, new ForwardKind()));
        expected.addAll(Cell.plan(options, new ForwardKind()));
        assertEquals(expected, plans.stream().map(plan -> plan.cellsInOrder().get(0)).toList(), "round 1 over every cell, then round 2");
        for (CellResult cell : outcome.run().cells()) {
            assertEquals(2, cell.coldStarts().size());
            assertTrue(cell.forkRuns().stream().allMatch(f -> f.positionInJvm() == 0), "every fork's first pass is its JVM's");
        }
        assertEquals("cell", outcome.run().config().forkJvms().isolation());
    }

    @Test
    void aForkThatDepartsFromItsSiblingsIsMeasuredAgainInAFreshJvmAndKeptApart() throws Exception {
        SweepOptions options = threeForks();
        List<Cell> cells = Cell.plan(options, new ForwardKind());
        Cell slow = cells.get(2);
        List<ForkPlan> plans = new ArrayList<>();
        InProcessForkExecutor real = new InProcessForkExecutor();
        ForkExecutor slowThirdJvm = (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            ForkExecutor.ForkExit exit = real.run(plan, planFile, consoleLog, events);
            // Pass times replaced by fixed ones, so that only the slow JVM departs: 1 ms everywhere, but 3 ms for one
            // cell in round 3's first JVM; its re-measurement reads 1.1 ms.
            boolean slowJvm = plan.round() == 3 && plans.size() == 3;
            for (ForkPlan.PlannedCell planned : plan.cells()) {
                Cell cell = plan.cell(planned);
                double ms = slowJvm && cell.equals(slow) ? 3.0 : plans.size() > 3 ? 1.1 : 1.0 + 0.01 * plan.round();
                rewritePasses(planned.outputDir().resolve(plan.fileName("json")), ms);
            }
            return exit;
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, slowThirdJvm, log);

        assertEquals(4, plans.size(), "three rounds, then one fresh JVM for the departed fork");
        assertEquals(3, plans.get(3).round(), "it measures round 3 again");
        assertEquals(List.of(slow), plans.get(3).cellsInOrder(), "over the departed cell only");
        RunResult stored = RunStore.readRun(outcome.store().runFile());
        assertEquals(outcome.run(), stored);
        assertEquals(1.5, stored.config().rules().forkDeparture());
        CellResult departedCell = cell(stored, slow);
        assertEquals(3, departedCell.forks());
        assertEquals(1, departedCell.departedForks().size());
        var departed = departedCell.departedForks().get(0);
        assertEquals(3, departed.fork().round());
        assertEquals(3.0, departed.p50Ms(), 0.01);
        assertEquals(1.02, departed.keptForksP50Ms(), 0.01, "the median of rounds 1, 2 and the fresh 3");
        assertEquals(plans.get(2).fileName("json"), departed.file(), "the round's first measurement, kept under its own name");
        assertEquals(DepartedFork.DEPARTED, departed.reason());
        assertTrue(departedCell.latencyMs().maxMs() < 1.2, "the departed passes are in none of the cell's numbers");
        assertEquals(3, departedCell.forkHistogramsNs().size());
        assertEquals(List.of(1, 2, 3), departedCell.forkRuns().stream().map(CellFork::round).toList());
        for (CellResult other : stored.cells()) {
            if (!other.id().equals(slow.id())) {
                assertNull(other.departedForks(), other.id());
            }
        }
        assertEquals(4, stored.forkJvms().size());
        String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("1 fork(s) departed from their siblings by more than x1.5"), printed);
        String logged = Files.readString(outcome.store().consoleLog());
        assertTrue(logged.contains("measured again: " + slow.id() + " fork 3 (departed): p50 3.000 ms in its first JVM, 1.10"),
                "each re-measured fork in the run's log: " + logged);
        assertTrue(!printed.contains("run 13 of 13") && logged.contains("run 13 of 13"),
                "the re-measured fork's progress in the log, not on the console: " + printed);
    }

    @Test
    void whenTheFreshJvmAgreesWithTheDepartedForkItsSiblingsAreMeasuredAgainToo() throws Exception {
        SweepOptions options = threeForks();
        List<ForkPlan> plans = new ArrayList<>();
        InProcessForkExecutor real = new InProcessForkExecutor();
        // Rounds 1 and 3 ran in slow JVMs (2 ms a pass), round 2 in a normal one (1 ms): every cell's median is the slow
        // value, so the normal fork departs as fast. Every fresh JVM is normal (1.05 ms).
        ForkExecutor twoSlowJvms = (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            ForkExecutor.ForkExit exit = real.run(plan, planFile, consoleLog, events);
            double ms = plans.size() > 3 ? 1.05 : plan.round() == 2 ? 1.0 : 2.0;
            for (ForkPlan.PlannedCell planned : plan.cells()) {
                rewritePasses(planned.outputDir().resolve(plan.fileName("json")), ms);
            }
            return exit;
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, twoSlowJvms, log);

        assertEquals(List.of(1, 2, 3, 2, 1, 3), plans.stream().map(ForkPlan::round).toList(),
                "three rounds, round 2 measured again, then the doubted rounds 1 and 3");
        assertTrue(plans.subList(3, 6).stream().allMatch(plan -> plan.cells().size() == 4), "each over the 4 cells");
        RunResult stored = RunStore.readRun(outcome.store().runFile());
        for (CellResult cell : stored.cells()) {
            assertEquals(3, cell.forks(), cell.id());
            assertTrue(cell.latencyMs().maxMs() < 1.1, "only fresh JVMs' passes count: " + cell.latencyMs());
            assertEquals(List.of(DepartedFork.DEPARTED, DepartedFork.DOUBTED, DepartedFork.DOUBTED),
                    cell.departedForks().stream().sorted(java.util.Comparator.comparingInt(d -> d.fork().round() == 2 ? 0 : 1))
                            .map(DepartedFork::reason).toList(), cell.id());
            DepartedFork doubted = cell.departedForks().stream().filter(d -> d.fork().round() == 1).findFirst().orElseThrow();
            assertEquals(2.0, doubted.p50Ms(), 0.01);
            assertEquals(plans.get(0).fileName("json"), doubted.file());
        }
        String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("4 fresh measurement(s) agreed with the departed fork") && printed.contains(
                "measuring 8 sibling fork(s) again too"), printed);
        assertTrue(printed.contains("fork 1 x1.90 doubted"), "the summary line names the doubted forks: " + printed);
    }

    @Test
    void aSlowDepartureThatAFreshJvmConfirmsLeavesItsSiblingsAlone() throws Exception {
        SweepOptions options = threeForks();
        Cell slow = Cell.plan(options, new ForwardKind()).get(1);
        List<ForkPlan> plans = new ArrayList<>();
        InProcessForkExecutor real = new InProcessForkExecutor();
        // Rounds 1 and 2 read 1 ms; round 3's JVM and everything after it run in a slower spell of the machine: 3 ms for
        // one cell in round 3, and 3.2 ms in its fresh JVM.
        ForkExecutor slowerAfterRoundTwo = (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            ForkExecutor.ForkExit exit = real.run(plan, planFile, consoleLog, events);
            for (ForkPlan.PlannedCell planned : plan.cells()) {
                Cell cell = plan.cell(planned);
                double ms = !cell.equals(slow) || plans.size() < 3 ? 1.0 + 0.01 * plan.round() : plans.size() == 3 ? 3.0 : 3.2;
                rewritePasses(planned.outputDir().resolve(plan.fileName("json")), ms);
            }
            return exit;
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, slowerAfterRoundTwo, log);

        assertEquals(List.of(1, 2, 3, 3), plans.stream().map(ForkPlan::round).toList(),
                "three rounds and the departed fork's fresh JVM; the faster siblings are not measured again");
        CellResult cell = cell(RunStore.readRun(outcome.store().runFile()), slow);
        assertEquals(List.of(1, 2, 3), cell.forkRuns().stream().map(CellFork::round).toList());
        assertEquals(List.of(DepartedFork.DEPARTED), cell.departedForks().stream().map(DepartedFork::reason).toList());
        assertEquals(3.0, cell.departedForks().get(0).p50Ms(), 0.01);
        assertEquals(1.02, cell.departedForks().get(0).keptForksP50Ms(), 0.01, "the median of rounds 1, 2 and the fresh 3");
        String printed = console.toString(StandardCharsets.UTF_8);
        assertFalse(printed.contains("sibling fork(s) again too"), printed);
        String logged = Files.readString(outcome.store().consoleLog());
        assertTrue(logged.contains("departure confirmed on the slow side: " + slow.id() + " fork 3 p50 3.000 ms, then 3.201 ms"
                + " in a fresh JVM; its siblings (rounds [1, 2]) [1.010, 1.020] ms are kept"), logged);
    }

    @Test
    void aFailedReMeasurementKeepsTheDepartedFork() throws Exception {
        SweepOptions options = threeForks();
        Cell slow = Cell.plan(options, new ForwardKind()).get(0);
        List<ForkPlan> plans = new ArrayList<>();
        InProcessForkExecutor real = new InProcessForkExecutor();
        ForkExecutor crashOnRemeasure = (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            if (plans.size() > 3) {
                return new ForkExecutor.ForkExit(4242, 134, System.currentTimeMillis(), "simulated crash");
            }
            ForkExecutor.ForkExit exit = real.run(plan, planFile, consoleLog, events);
            for (ForkPlan.PlannedCell planned : plan.cells()) {
                double ms = plan.round() == 2 && plan.cell(planned).equals(slow) ? 5.0 : 1.0;
                rewritePasses(planned.outputDir().resolve(plan.fileName("json")), ms);
            }
            return exit;
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, crashOnRemeasure, log);

        assertEquals(4, plans.size());
        CellResult kept = cell(outcome.run(), slow);
        assertTrue(kept.measured(), "a failed re-measurement does not fail the cell: " + kept.error());
        assertEquals(3, kept.forks());
        assertNull(kept.departedForks(), "the departed fork counts again");
        assertEquals(5.0, kept.latencyMs().maxMs(), 0.01);
        String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains(slow.id() + " fork 2 re-measurement FAILED"), printed);
    }

    @Test
    void aJvmThatGoesSlowIsStoppedAndItsRemainingCellsRunInAFreshJvm() throws Exception {
        SweepOptions options = Settings.sweep(twoRounds("bench.forkDeparture", "1.5"));
        List<ForkPlan> plans = new ArrayList<>();
        InProcessForkExecutor real = new InProcessForkExecutor();
        // The forks measure fixed counts; their events are read as precise, at 1 ms in round 1 and 3 ms in round 2's first
        // JVM: three slow cells of its last four, so the sweep stops it after its third.
        ForkExecutor slowSecondRound = (plan, planFile, consoleLog, listener) -> {
            plans.add(plan);
            double ms = plans.size() == 2 ? 3.0 : 1.0;
            return real.run(plan, planFile, consoleLog, event -> listener.on(event instanceof ForkEvent.CellDone d
                    ? new ForkEvent.CellDone(d.cellId(), d.warmupPasses(), d.warmupEnd(), d.passes(), MeasureEnd.PRECISE, 1.0,
                    ms, ms, null, null, null) : event));
        };
        Pipeline.Outcome outcome = TestRuns.sweep(options, slowSecondRound, log);

        assertEquals(List.of(4, 4, 1), plans.stream().map(plan -> plan.cells().size()).toList());
        assertEquals(plans.get(1).cellsInOrder().subList(3, 4), plans.get(2).cellsInOrder(), "the cell it had not begun");
        List<ForkJvm> jvms = outcome.run().forkJvms();
        assertTrue(jvms.get(1).stoppedAsSlow() && jvms.get(1).error().contains("3 of its last 3 cells ran more than x1.5 slower"),
                jvms.get(1).error());
        assertEquals(List.of("round", "round", "round, rest of a JVM stopped as slow"), jvms.stream().map(ForkJvm::job).toList());
        for (CellResult cell : outcome.run().cells()) {
            assertTrue(cell.measured(), cell.error());
            assertEquals(List.of(1, 2), cell.forkRuns().stream().map(CellFork::round).toList(), cell.id());
        }
        assertTrue(Files.readString(outcome.store().consoleLog()).contains("stopping the onnxruntime fork JVM of round 2"));
    }

    /** Two fork rounds of 10 passes each, with {@code key} set to {@code value}. */
    private Properties twoRounds(String key, String value) {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.forks", "2");
        p.setProperty("bench.iterations", "10");
        p.setProperty(key, value);
        return p;
    }

    /** A sweep with in-process forks, each fork JVM's plan added to {@code plans}. */
    private Pipeline.Outcome recordingPlans(SweepOptions options, List<ForkPlan> plans) throws Exception {
        InProcessForkExecutor real = new InProcessForkExecutor();
        return TestRuns.sweep(options, (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            return real.run(plan, planFile, consoleLog, events);
        }, log);
    }

    /**
     * One fork JVM measures all of a model's cells: run.json must hold its first cell as soon as the sweep has taken the
     * cell's end, while the JVM measures the next, so that a kill -9 of the sweep's JVM there keeps it. What run.json
     * holds at that moment is what such a kill would leave.
     */
    @Test
    void aCellIsInRunJsonAsSoonAsItsForkWroteItWhileItsJvmGoesOn() throws Exception {
        SweepOptions options = Settings.sweep(TestOptions.minimal(dir.resolve("results")));
        InProcessForkExecutor real = new InProcessForkExecutor();
        List<RunResult> atFirstCell = new ArrayList<>();
        ForkExecutor watched = (plan, planFile, consoleLog, events) -> real.run(plan, planFile, consoleLog, event -> {
            ForkExecutor.Next next = events.on(event);
            if (event instanceof ForkEvent.CellDone && atFirstCell.isEmpty()) {
                atFirstCell.add(RunStore.readRun(consoleLog.resolveSibling(RunStore.RUN_FILE)));
            }
            return next;
        });
        Pipeline.Outcome outcome = TestRuns.sweep(options, watched, log);

        RunResult kept = atFirstCell.get(0);
        assertEquals(1, kept.cells().size(), "the first cell, written while its JVM went on: " + kept.cells());
        assertTrue(kept.cells().get(0).measured() && kept.cells().get(0).histogramNs() != null);
        assertEquals(4, kept.config().plan().plannedCells().size(), "the plan, so a reader sees what was never measured");
        assertNull(kept.finishedAt(), "an unfinished run says so");
        assertEquals(1, outcome.run().forkJvms().size(), "one JVM measured all four cells");
        assertEquals(4, outcome.run().cells().size());
    }

    /** Three fork rounds of 10 passes each: enough forks for one to depart from the other two. */
    private SweepOptions threeForks() {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.forks", "3");
        p.setProperty("bench.iterations", "10");
        return Settings.sweep(p);
    }

    /** Replaces a fork's measured passes by 20 passes of {@code ms}, with a p50 interval of +-1%. */
    private static void rewritePasses(Path forkFile, double ms) throws java.io.UncheckedIOException {
        try {
            var tree = (com.fasterxml.jackson.databind.node.ObjectNode) io.inferbench.results.Json.mapper().readTree(forkFile.toFile());
            org.HdrHistogram.Histogram passes = PassRecorder.newHistogram();
            passes.recordValueWithCount(Math.round(ms * 1e6), 20);
            tree.put("measuredHistogramNs", io.inferbench.measure.HistogramCodec.encode(passes));
            ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("measurement")).put("p50HalfWidthPercent", 1.0);
            io.inferbench.results.Json.mapper().writeValue(forkFile.toFile(), tree);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static CellResult cell(RunResult run, Cell cell) {
        return run.cells().stream().filter(c -> c.id().equals(cell.id())).findFirst().orElseThrow();
    }
}
