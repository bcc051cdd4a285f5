package io.inferbench.generate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.inferbench.cli.ExitCode;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.PassRecorder;
import io.inferbench.pipeline.Pipeline;
import io.inferbench.pipeline.TestRuns;
import io.inferbench.probe.CpuProbe;
import io.inferbench.results.CellFork;
import io.inferbench.results.DepartedFork;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.GenerationResult;
import io.inferbench.results.Json;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.StageResult;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ForkPlan;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.runner.TestOptions;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generation as a cell kind of the one runner, with its fork JVMs run in-process (the JMH fork JVM itself is covered by
 * the end-to-end runs): the sweep's rules, set-aside and durability apply to it, and its run.json says what it applied.
 */
class GenerationRunTest {
    private static final int NEW_TOKENS = 4;
    private static final int MEASURED = 5;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(console, true, StandardCharsets.UTF_8);
    private final GenerationKind kind = new GenerationKind(NEW_TOKENS, List.of());

    /** tiny-decoder on ONNX Runtime, prompts of 8, batches 1 and 2, {@value #MEASURED} measured generations per fork. */
    private Properties options(int forks) {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", "tiny-decoder");
        p.setProperty("bench.seq", "8");
        p.setProperty("bench.iterations", Integer.toString(MEASURED));
        p.setProperty("bench.forks", Integer.toString(forks));
        return p;
    }

    @Test
    void aGenerationRunIsMeasuredByTheRunnerAndItsRunJsonSaysWhatItApplied() throws Exception {
        List<ForkPlan> plans = new ArrayList<>();
        Pipeline.Outcome outcome = TestRuns.generation(options(1), kind, recording(plans, new InProcessForkExecutor()), log);
        RunResult run = RunStore.readRun(outcome.store().runFile());

        assertEquals(List.of("preflight", "generation", "report"), run.stages().stream().map(StageResult::name).toList(),
                "the sweep's stages after it do not apply, and are not recorded");
        assertEquals(List.of(), run.cells(), "generation's cells are in its own section");
        assertEquals(ExitCode.OK, ExitCode.of(run));
        assertEquals(1, plans.size(), "one fork JVM per engine, device and model in each round");
        assertEquals(kind, plans.get(0).kind(), "the plan carries the kind to the fork");

        GenerationResult g = run.generation();
        assertEquals(2, g.cells().size());
        for (GenerationResult.Cell c : g.cells()) {
            assertEquals(MEASURED, c.generations());
            assertEquals(MEASURED * (NEW_TOKENS - 1), c.stepMs().count(), "every step of every measured generation, no more");
            assertEquals(MEASURED, c.ttftMs().count());
            assertTrue(c.ttftMs().p50Ms() >= c.prefillMs().p50Ms(), "the first token includes the prefill");
            assertEquals(NEW_TOKENS - 1, c.stepP50MsByPosition().size());
            assertEquals(2L * 2 * c.batch() * 4 * (8 + NEW_TOKENS - 1) * 32 * 4, c.kvCacheBytes(), "tiny-decoder's formula");
            assertEquals(1, c.forkRuns().size(), "the fork records the generation run lacked before");
            assertEquals(MEASURED, c.forkRuns().get(0).measurement().passes());
            assertNotNull(c.prefillRoofline(), "a built-in's phases on the measured roofs");
        }
        assertEquals(2, g.agreement().size());
        assertTrue(g.agreement().stream().allMatch(GenerationResult.TokenAgreement::tokensMatch), g.agreement().toString());
        assertEquals(List.of("prefill", "decode"), g.fits().stream().map(GenerationResult.Fit::phase).toList());

        assertEquals(1, run.forkJvms().size());
        ForkJvm jvm = run.forkJvms().get(0);
        assertEquals("round", jvm.job());
        assertNotNull(jvm.engineLoadMs());
        assertEquals("generation", run.config().plan().cellKind());
        assertEquals(GenerationKind.MIN_GENERATIONS, run.config().rules().measurePolicy().stop().minPasses(),
                "the rules the cells ran by, with generation's minimum");
        assertEquals(GenerationKind.MIN_MEASURE_CAP_MS, run.config().rules().measurePolicy().stop().capMs());
        assertEquals(plans.get(0).policy(), run.config().rules().measurePolicy(), "what the forks were given is what is recorded");
        assertEquals(plans.get(0).jitCompilation().label(), run.config().forkJvms().jitCompilation());
        assertTrue(run.timing().measuredPassesSeconds() > 0, "the time account adds up the generations");
        String printed = console.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("ttft p50") && printed.contains("step p50") && printed.contains(MEASURED + " generations"),
                "each cell's progress line gives its phases: " + printed);
    }

    @Test
    void runJsonHoldsEveryGenerationCellOfEachForkJvmThatFinishedWhenTheRunDiesAfterIt() throws Exception {
        InProcessForkExecutor real = new InProcessForkExecutor();
        List<Path> runFiles = new ArrayList<>();
        ForkExecutor diesInTheSecondJvm = (plan, planFile, consoleLog, events) -> {
            if (plan.round() == 2) {
                // The run's JVM dies here (kill -9): nothing after this point is written.
                throw new RunKilled();
            }
            runFiles.add(consoleLog.resolveSibling(RunStore.RUN_FILE));
            return real.run(plan, planFile, consoleLog, events);
        };
        assertThrows(RunKilled.class, () -> TestRuns.generation(options(2), kind, diesInTheSecondJvm, log));

        RunResult kept = RunStore.readRun(runFiles.get(0));
        assertEquals(2, kept.generation().cells().size(), "both cells of the first fork JVM");
        assertTrue(kept.generation().cells().stream().allMatch(c -> c.generations() == MEASURED
                && c.forkRuns().stream().map(CellFork::round).toList().equals(List.of(1))), "its fork, and only it");
        assertEquals(List.of("prefill", "decode"), kept.generation().fits().stream().map(GenerationResult.Fit::phase).toList(),
                "the fits of what was measured so far");
        assertEquals(1, kept.forkJvms().size());
        assertNull(kept.finishedAt(), "an unfinished run says so");
    }

    @Test
    void aDisturbedGenerationMeasurementIsSetAsideAndMeasuredAgainWithoutItsPhases() throws Exception {
        Pipeline.Outcome outcome = TestRuns.generation(options(1), kind, new InProcessForkExecutor(null,
                firstOfEachPairDisturbed()), log);
        GenerationResult g = RunStore.readRun(outcome.store().runFile()).generation();
        assertEquals(2, g.cells().size());
        for (GenerationResult.Cell c : g.cells()) {
            var measurement = c.forkRuns().get(0).measurement();
            assertEquals(1, measurement.setAside().size(), "the disturbed measurement is set aside: " + measurement);
            assertTrue(measurement.setAside().get(0).otherProcessesPercent() > 10);
            assertEquals(MEASURED, c.generations(), "the cell's numbers are the measurement made again");
            assertEquals(MEASURED * (NEW_TOKENS - 1), c.stepMs().count(), "no phase of the set-aside generations is kept");
            assertEquals(MEASURED, c.ttftMs().count());
        }
    }

    @Test
    void aGenerationForkThatDepartsFromItsSiblingsIsMeasuredAgainInAFreshJvm() throws Exception {
        List<ForkPlan> plans = new ArrayList<>();
        InProcessForkExecutor real = new InProcessForkExecutor();
        ForkExecutor slowThirdRound = (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            ForkExecutor.ForkExit exit = real.run(plan, planFile, consoleLog, events);
            // The generations' own times replaced by fixed ones, so that only round 3's first JVM departs, at batch 2.
            for (ForkPlan.PlannedCell planned : plan.cells()) {
                double ms = plan.round() == 3 && plans.size() == 3 && planned.batch() == 2 ? 30.0 : 10.0 + plan.round() * 0.1;
                rewriteGenerations(planned.outputDir().resolve(plan.fileName("json")), ms);
            }
            return exit;
        };
        Pipeline.Outcome outcome = TestRuns.generation(options(3), kind, slowThirdRound, log);
        RunResult run = RunStore.readRun(outcome.store().runFile());

        assertEquals(4, plans.size(), "three rounds, then one fresh JVM for the departed fork");
        assertEquals(3, plans.get(3).round());
        assertEquals(List.of(2), plans.get(3).cells().stream().map(ForkPlan.PlannedCell::batch).toList());
        assertEquals("departed", run.forkJvms().get(3).job());
        GenerationResult.Cell departed = run.generation().cells().stream().filter(c -> c.batch() == 2).findFirst().orElseThrow();
        assertEquals(1, departed.departedForks().size());
        DepartedFork d = departed.departedForks().get(0);
        assertEquals(3, d.fork().round());
        assertEquals(30.0, d.p50Ms(), 0.05);
        assertEquals(DepartedFork.DEPARTED, d.reason());
        assertEquals(List.of(1, 2, 3), departed.forkRuns().stream().map(CellFork::round).toList(), "round 3 measured again");
        assertEquals(3L * MEASURED, departed.generations(), "the departed fork is in none of the cell's numbers");
        assertNull(run.generation().cells().stream().filter(c -> c.batch() == 1).findFirst().orElseThrow().departedForks());
    }

    /** The executor's plans, as each fork JVM is started. */
    private static ForkExecutor recording(List<ForkPlan> plans, ForkExecutor real) {
        return (plan, planFile, consoleLog, events) -> {
            plans.add(plan);
            return real.run(plan, planFile, consoleLog, events);
        };
    }

    /**
     * A machine on which other processes take the whole of it during every first measurement of a pair (a cell's first
     * try) and nothing during the second: each measurement reads the CPU before and after its units.
     */
    private static CpuProbe firstOfEachPairDisturbed() {
        long[] calls = {0};
        double[] busyMs = {0};
        return () -> {
            calls[0]++;
            if (calls[0] % 4 == 2) {
                busyMs[0] += 1e9;
            }
            return new CpuProbe.Snapshot(0, busyMs[0], Map.of());
        };
    }

    /** Replaces a generation fork's measured units by {@value #MEASURED} of {@code ms} each, with a p50 interval of 1%. */
    private static void rewriteGenerations(Path forkFile, double ms) {
        try {
            ObjectNode tree = (ObjectNode) Json.mapper().readTree(forkFile.toFile());
            Histogram units = PassRecorder.newHistogram();
            units.recordValueWithCount(Math.round(ms * 1e6), MEASURED);
            tree.put("measuredHistogramNs", HistogramCodec.encode(units));
            ((ObjectNode) tree.get("measurement")).put("p50HalfWidthPercent", 1.0);
            Json.mapper().writeValue(forkFile.toFile(), tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The run's own JVM dying between two fork JVMs, as a {@code kill -9} of it would: nothing after it runs. */
    private static final class RunKilled extends Error {
        RunKilled() {
            super("simulated kill -9 of the run's JVM");
        }
    }
}
