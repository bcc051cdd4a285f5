package io.inferbench.serve;

import io.inferbench.TestPaths;
import io.inferbench.cli.Settings;
import io.inferbench.engine.TextTokenizer;
import io.inferbench.pipeline.Pipeline;
import io.inferbench.pipeline.TestRuns;
import io.inferbench.results.AblationResult;
import io.inferbench.results.ServingResult;
import io.inferbench.results.SoakResult;
import io.inferbench.runner.InProcessForkExecutor;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import io.inferbench.workload.TextWorkloads;
import io.inferbench.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ablation's costs by difference against the stage breakdown, and an ablation and a soak served on the real tiny model. */
class AblationRunTest {
    @TempDir
    Path dir;

    private static AblationResult.Part part(String name, double meanMs, double stdErrorMs, Map<String, Double> stages) {
        return new AblationResult.Part(name, null, 100, 100, 0, 0, meanMs, stdErrorMs, meanMs, meanMs, meanMs, meanMs, meanMs,
                stages);
    }

    /**
     * Removing the engine saves its stages and the queueing behind it: the difference is larger than the stages and the
     * reading says why. Reading outputs costs what its stage says: they agree. A part whose mean is too noisy to tell
     * from the full path's is not resolved, whatever its stages say. The full path's reference is the mean of its two
     * runs, and each interval comes from the three means' standard errors.
     */
    @Test
    void costsComeByDifferenceFromBothFullRunsWithAnIntervalBesideTheStages() {
        List<AblationResult.Part> parts = List.of(
                part(AblationResult.FULL, 2.0, 0.01, Map.of("prepare", 0.1, "forward", 0.8, "fetch", 0.1)),
                part(AblationResult.NOOP_ENGINE, 0.1, 0.01, Map.of("prepare", 0.02, "forward", 0.0, "fetch", 0.01)),
                part(AblationResult.FIXED_TOKENS, 2.05, 0.5, Map.of("prepare", 0.1, "forward", 0.8, "fetch", 0.1)),
                part(AblationResult.OUTPUTS_UNREAD, 2.0, 0.01, Map.of("prepare", 0.1, "forward", 0.8, "fetch", 0.0)),
                part(AblationResult.FULL_REPEAT, 2.2, 0.01, Map.of("prepare", 0.1, "forward", 0.8, "fetch", 0.1)));

        List<AblationResult.Cost> costs = AblationRun.costs(parts);

        assertEquals(3, costs.size());
        double halfWidth = AblationRun.Z95 * Math.sqrt((0.01 * 0.01 + 0.01 * 0.01) / 4 + 0.01 * 0.01);
        AblationResult.Cost engine = costs.get(0);
        assertEquals("the engine", engine.removed());
        assertEquals(2.1 - 0.1, engine.meanMs(), 1e-9, "the mean of both full runs, less the no-op's");
        assertEquals(2.0 - halfWidth, engine.meanLowMs(), 1e-9);
        assertEquals(2.0 + halfWidth, engine.meanHighMs(), 1e-9);
        assertTrue(engine.resolved());
        assertEquals(1.0 - 0.03, engine.stageMeanMs(), 1e-9, "the full stages less what the no-op path keeps of them");
        assertFalse(engine.agree());
        assertTrue(engine.reading().contains("queued behind it"), engine.reading());
        assertEquals(0.2, engine.fullDriftMs(), 1e-9);
        AblationResult.Cost tokens = costs.get(1);
        assertFalse(tokens.resolved(), "0.05 ms against a standard error of 0.5 ms: " + tokens);
        assertTrue(tokens.reading().contains("not resolved"), tokens.reading());
        AblationResult.Cost unread = costs.get(2);
        assertEquals(0.1, unread.meanMs(), 1e-9);
        assertEquals(0.1, unread.stageMeanMs(), 1e-9);
        assertTrue(unread.resolved() && unread.agree(), unread.reading());
        assertTrue(unread.reading().endsWith("they agree"), unread.reading());
    }

    /**
     * A text workload served on the tiny model with an ablation and a short soak: every part runs on the same arrivals,
     * fixed tokens take the tokenizer out, the no-op engine does no pass, and the soak's windows carry memory readings.
     */
    @Test
    void ablatesAndSoaksATextWorkloadOnTheTinyModel() throws Exception {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.rate", "200");
        p.setProperty("bench.serveSeconds", "0.5");
        p.setProperty("bench.ablation", "true");
        p.setProperty("bench.soakSeconds", "2.5");
        p.setProperty("bench.soakWindowSeconds", "0.5");
        SweepOptions sweep = Settings.sweep(p);
        ServeOptions serve = Settings.serve(p, sweep);
        Path text = Files.writeString(dir.resolve("docs.txt"), "short one\na somewhat longer request, with more words\n"
                + "mid size text\n");
        Workload workload = TextWorkloads.load(text.toString(), null, TestPaths.modelCache(), TestPaths.nativeCache());
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(console, true, StandardCharsets.UTF_8);
        Pipeline.Outcome outcome = TestRuns.sweep(sweep, new InProcessForkExecutor(), log);
        ServingResult serving;
        try (TextTokenizer tokenizer = TextWorkloads.openTokenizer(null, TestPaths.modelCache(), TestPaths.nativeCache())) {
            serving = new ServingRunner(sweep.sessionDefaults(), sweep.engines().nvidiaSmi(), serve, log,
                    new RequestInputs(workload, sweep.plan().seqLens(), null, tokenizer)).run(outcome.run());
        }

        assertEquals(1, serving.ablation().size());
        AblationResult ablation = serving.ablation().get(0);
        assertEquals(200, ablation.rateRps());
        assertEquals(List.of(AblationResult.FULL, AblationResult.NOOP_ENGINE, AblationResult.FIXED_TOKENS,
                AblationResult.OUTPUTS_UNREAD, AblationResult.FULL_REPEAT),
                ablation.parts().stream().map(AblationResult.Part::name).toList());
        long sent = ablation.parts().get(0).sent();
        for (AblationResult.Part part : ablation.parts()) {
            assertEquals(sent, part.sent(), "the same arrivals for every part: " + part.name());
            assertEquals(0, part.failed(), part.name());
            assertNotNull(part.meanMs(), part.name());
        }
        AblationResult.Part fixed = ablation.parts().get(2);
        assertEquals(0.0, fixed.stageMeansMs().getOrDefault("tokenize", 0.0), 1e-3, "nothing tokenized under load");
        assertTrue(ablation.parts().get(0).stageMeansMs().get("tokenize") > 0, "the full path tokenizes");
        AblationResult.Part noop = ablation.parts().get(1);
        assertTrue(noop.stageMeansMs().get("forward") < ablation.parts().get(0).stageMeansMs().get("forward"),
                "no pass in the no-op engine: " + noop.stageMeansMs());
        assertEquals(3, ablation.costs().size(), "the engine, tokenizing, reading the outputs");
        assertTrue(ablation.skipped().isEmpty(), ablation.skipped().toString());
        AblationResult.Harness harness = ablation.harness();
        assertNotNull(harness.tokenizeMeanMs(), "the no-op engine still tokenizes the texts");
        assertEquals(noop.meanMs(), harness.generatorLagMeanMs() + harness.queueMeanMs() + harness.tokenizeMeanMs()
                + harness.pathMeanMs(), 1e-9,
                "the parts add up to the no-op's mean");
        assertTrue(harness.pathMeanMs() > 0, harness.toString());

        assertEquals(1, serving.soak().size());
        SoakResult soak = serving.soak().get(0);
        assertEquals(5, soak.windows().size());
        assertEquals(soak.sent(), soak.completed() + soak.failed());
        assertTrue(soak.windows().stream().allMatch(w -> w.rssMb() != null && w.heapMb() != null), "memory read per window");
        assertTrue(List.of(SoakTrends.STABLE, SoakTrends.DRIFTING).contains(soak.latencyTrend().verdict()));
        assertTrue(soak.notes().get(0).contains("shorter than the 180 s"), soak.notes().toString());
        String out = console.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("soak latency: ") && out.contains("ablation: the engine costs"), out);
    }
}
