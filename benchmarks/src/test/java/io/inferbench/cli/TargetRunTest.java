package io.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.TestPaths;
import io.inferbench.runner.InProcessForkExecutor;
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
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's target, compiled outside the build against the API ({@link TargetSources}), run as a user runs it:
 * {@code -Dbench.target} and {@code -Dbench.classpath} through the command line, its fork JVMs in-process. Its stages are
 * spins of known lengths, so each stage's time has a floor the harness must reach, and its call a cost per row the fit
 * must find.
 */
class TargetRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET = "ext.SpinTarget";

    @TempDir
    Path dir;

    private Properties run(Path classes, String results) {
        Properties p = new Properties();
        p.setProperty("bench.target", TARGET);
        p.setProperty("bench.classpath", classes.toString());
        p.setProperty("bench.seq", "16");
        p.setProperty("bench.batch", "1,2,4");
        p.setProperty("bench.warmup", "20");
        p.setProperty("bench.iterations", "150");
        p.setProperty("bench.forks", "1");
        p.setProperty("bench.threads", "1");
        p.setProperty("bench.seed", "42");
        p.setProperty("bench.results", dir.resolve(results).toString());
        p.setProperty("bench.cache", TestPaths.modelCache().toString());
        return p;
    }

    private record Ran(int code, String console, JsonNode run, Path runFile) {
    }

    /** The spinning target compiled into the test's folder, and a run of it into {@code results}. */
    private Properties spinTarget() throws IOException {
        return run(TargetSources.compile(dir.resolve("user"), Map.of(TARGET, TargetSources.spinning(TARGET))), "results");
    }

    private Ran sweep(Properties p) throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        int code = InferbenchMain.run(new String[]{"sweep"}, p, out, out, options -> new InProcessForkExecutor()).code();
        Path results = Path.of(p.getProperty("bench.results"));
        Path runFile = null;
        if (Files.isDirectory(results)) {
            try (Stream<Path> files = Files.walk(results)) {
                runFile = files.filter(f -> f.getFileName().toString().equals("run.json")).findFirst().orElse(null);
            }
        }
        return new Ran(code, sink.toString(StandardCharsets.UTF_8), runFile == null ? null : JSON.readTree(runFile.toFile()),
                runFile);
    }

    @Test
    void aSweepOfATargetHasItsStagesFitsAndCode() throws Exception {
        Path classes = TargetSources.compile(dir.resolve("user"), Map.of(TARGET, TargetSources.spinning(TARGET)));
        Ran ran = sweep(run(classes, "results"));
        assertEquals(0, ran.code(), ran.console());
        assertTrue(ran.console().contains("Stages of each call"), ran.console());
        String report = Files.readString(ran.runFile().resolveSibling("report.md"));
        assertTrue(report.contains("## Stages of the call"));
        // Issue 66: what a service owner asks first, in the first section.
        String answers = report.substring(report.indexOf("## Answers"), report.indexOf("## Conditions"));
        assertTrue(answers.contains("- **" + TARGET + " | cpu | seq 16**: p50 / p99 ") && answers.contains("ms at batch 1; "),
                answers);

        JsonNode target = ran.run().path("config").path("targets").get(0);
        assertEquals(TARGET, target.path("className").asText());
        assertEquals(io.inferbench.ci.TargetChecks.classesSha256(classes), target.path("classpath").get(0).path("sha256").asText(),
                "the class folder's hash: each file's relative path and bytes, in path order");

        List<JsonNode> cells = new ArrayList<>();
        ran.run().path("cells").forEach(cells::add);
        assertEquals(3, cells.size());
        for (JsonNode cell : cells) {
            assertEquals("ok", cell.path("status").asText(), cell.toString());
            assertEquals(TARGET, cell.path("backend").asText());
            int rows = cell.path("batch").asInt();
            JsonNode phases = cell.path("phases");
            List<String> names = new ArrayList<>();
            phases.path("stages").forEach(s -> names.add(s.path("name").asText()));
            assertEquals(List.of("tokenize", "forward", "serialize", "(outside any stage)"), names);
            double callMeanMs = cell.path("latencyMs").path("meanMs").asDouble();
            double sumMs = 0;
            double sharePercent = 0;
            Map<String, Double> floorMs = Map.of("tokenize", 0.030 * rows, "forward", 0.060 * rows, "serialize", 0.020 * rows,
                    "(outside any stage)", 0.040);
            for (JsonNode stage : phases.path("stages")) {
                String name = stage.path("name").asText();
                double mean = stage.path("meanMsPerUnit").asDouble();
                assertTrue(mean >= floorMs.get(name), name + " spins " + floorMs.get(name) + " ms at batch " + rows
                        + " and cannot take less: " + mean);
                if (!name.startsWith("(")) {
                    assertEquals(cell.path("measuredPasses").asLong(), stage.path("latencyMs").path("count").asLong(),
                            "one mark of " + name + " per measured call");
                    assertTrue(stage.path("latencyMs").path("p50Ms").asDouble() >= floorMs.get(name));
                }
                sumMs += mean;
                sharePercent += stage.path("sharePercent").asDouble();
            }
            assertEquals(callMeanMs, sumMs, callMeanMs * 0.01, "the rows add up to the call");
            assertEquals(100, sharePercent, 1.0);
            assertTrue(phases.path("markCostNs").asDouble() > 0, "the cost of a mark is stated: " + phases);
        }

        JsonNode fit = ran.run().path("fits").get(0);
        assertNotNull(fit, "a fit of latency against batch");
        double marginalMs = fit.path("marginalCostMsPerSample").asDouble();
        assertTrue(marginalMs >= 0.100, "each row spins 0.110 ms, so a row costs at least ~0.1 ms: " + fit);
        assertFalse(fit.path("regime").asText().isEmpty(), fit.toString());
    }

    @Test
    void openLoopServingTimesTheTargetsStagesPerRequest() throws Exception {
        Properties p = spinTarget();
        p.setProperty("bench.batch", "1,2");
        p.setProperty("bench.rate", "100");
        p.setProperty("bench.serveSeconds", "2");
        Ran ran = sweep(p);
        assertEquals(0, ran.code(), ran.console());
        JsonNode point = ran.run().path("serving").path("points").get(0);
        assertEquals("open-loop", point.path("mode").asText(), point.toString());
        JsonNode stages = point.path("stagesMs");
        for (String stage : List.of("prepare", "forward.tokenize", "forward.forward", "forward.serialize",
                "forward.(outside any stage)")) {
            assertTrue(stages.has(stage), stage + " is a stage of every request: " + stages);
        }
        assertTrue(stages.path("forward.forward").path("p50Ms").asDouble() >= 0.060, stages.toString());
        assertTrue(point.path("completed").asLong() > 0, point.toString());
    }

    @Test
    void compareHoldsTwoRunsToTheSameCodeUnlessTheChangeIsUnderTest() throws Exception {
        Path classes = TargetSources.compile(dir.resolve("user"), Map.of(TARGET, TargetSources.spinning(TARGET)));
        Path slower = TargetSources.compile(dir.resolve("user-slower"), Map.of(TARGET,
                TargetSources.spinning(TARGET).replace("forwardNs * rows", "3 * forwardNs * rows")));
        Ran first = sweep(forks(run(classes, "first")));
        Ran second = sweep(forks(run(classes, "second")));
        Ran changed = sweep(forks(run(slower, "changed")));
        for (Ran ran : List.of(first, second, changed)) {
            assertEquals(0, ran.code(), ran.console());
            for (JsonNode cell : ran.run().path("cells")) {
                double sum = 0;
                for (JsonNode stage : cell.path("phases").path("stages")) {
                    sum += stage.path("meanMsPerUnit").asDouble();
                }
                double mean = cell.path("latencyMs").path("meanMs").asDouble();
                assertEquals(mean, sum, mean * 1e-9, "with forks each weighing the same, the rows add up to the call");
            }
        }

        Compared same = compare(first, second, new Properties());
        assertTrue(same.code() == 0 || same.code() == 1 || same.code() == 4, "the same code compares: " + same.console());
        assertTrue(Files.exists(dir.resolve("compare-out/compare.json")), same.console());

        Compared refused = compare(first, changed, new Properties());
        assertEquals(2, refused.code(), refused.console());
        assertTrue(refused.console().contains("the code of target " + TARGET + " differs")
                && refused.console().contains("-Dcompare.codeChange=true"), refused.console());

        Properties codeChange = new Properties();
        codeChange.setProperty("compare.codeChange", "true");
        Compared gate = compare(first, changed, codeChange);
        assertEquals(1, gate.code(), "a forward pass three times as long is a regression: " + gate.console());
        JsonNode result = JSON.readTree(dir.resolve("compare-out/compare.json").toFile());
        assertTrue(result.toString().contains("the change under test"), result.toString());
        String md = Files.readString(dir.resolve("compare-out/compare.md"));
        assertFalse(md.contains("TargetCode[") || md.contains("CodeEntry["), "no record's toString in a file for people: " + md);
        assertTrue(md.lines().allMatch(line -> line.length() <= 1000), "no line longer than a screen is wide, thrice");
    }

    /**
     * Four forks a run: the comparison resolves a change by Welch's test over the forks' medians only when its degrees of
     * freedom are above 2, and with n forks a side they lie in [n - 1, 2n - 2], so 2 forks a side can never resolve it
     * (at most 2) and 3 may not (down to 2); 4 always can.
     */
    private static Properties forks(Properties p) {
        p.setProperty("bench.forks", "4");
        p.setProperty("bench.iterations", "60");
        p.setProperty("bench.batch", "1,4");
        return p;
    }

    private record Compared(int code, String console) {
    }

    private Compared compare(Ran baseline, Ran candidate, Properties p) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        int code = InferbenchMain.run(new String[]{"compare", baseline.runFile().toString(), candidate.runFile().toString(),
                dir.resolve("compare-out").toString()}, p, out, out).code();
        return new Compared(code, sink.toString(StandardCharsets.UTF_8));
    }

    @Test
    void badTargetsAreRefusedBeforeAnythingIsMeasured() throws Exception {
        Path classes = TargetSources.compile(dir.resolve("user"), Map.of(
                "ext.NotATarget", "package ext; public class NotATarget { }",
                "ext.OpenFails", """
                        package ext;
                        import io.inferbench.api.*;
                        public class OpenFails implements InferenceTarget {
                            public void open(TargetContext c) { loadModel(c.property("model", "/no/such/model.onnx")); }
                            private void loadModel(String path) { throw new IllegalStateException("no model at " + path); }
                            public Call prepare(Shape s) { return () -> "x"; }
                        }
                        """,
                "ext.PrepareFails", """
                        package ext;
                        import io.inferbench.api.*;
                        public class PrepareFails implements InferenceTarget {
                            public void open(TargetContext c) { }
                            public Call prepare(Shape s) { throw new IllegalArgumentException("no tokenizer for " + s.seqLen()); }
                        }
                        """,
                "ext.NullResult", """
                        package ext;
                        import io.inferbench.api.*;
                        public class NullResult implements InferenceTarget {
                            public void open(TargetContext c) { }
                            public Call prepare(Shape s) { return () -> null; }
                        }
                        """));
        Map<String, List<String>> refusals = Map.of(
                "ext.Missing", List.of("Unknown target class 'ext.Missing'"),
                "ext.NotATarget", List.of("ext.NotATarget does not implement io.inferbench.api.InferenceTarget"),
                "ext.OpenFails", List.of("no model at /no/such/model.onnx", "ext.OpenFails.loadModel(OpenFails.java:5)"),
                "ext.PrepareFails", List.of("no tokenizer for 16", "ext.PrepareFails.prepare(PrepareFails.java:5)"),
                "ext.NullResult", List.of("ext.NullResult's Call.run returned null"));
        for (Map.Entry<String, List<String>> refusal : refusals.entrySet()) {
            Properties p = run(classes, "results-" + refusal.getKey());
            p.setProperty("bench.target", refusal.getKey());
            Ran ran = sweep(p);
            assertEquals(2, ran.code(), ran.console());
            for (String says : refusal.getValue()) {
                assertTrue(ran.console().contains(says), "expected '" + says + "' in:\n" + ran.console());
            }
            assertTrue(ran.run() == null || ran.run().path("cells").isEmpty(), "nothing measured: " + ran.run());
        }

        Properties missing = run(dir.resolve("no-such-folder"), "results-missing");
        Ran ran = sweep(missing);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains(dir.resolve("no-such-folder").toString()), ran.console());

        Properties profile = run(classes, "results-profile");
        profile.setProperty("bench.target", "ext.NullResult");
        profile.setProperty("bench.profile", "true");
        Ran refused = sweep(profile);
        assertEquals(2, refused.code(), refused.console());
        assertTrue(refused.console().contains("-Dbench.profile=true places an engine's cells on the roofline"), refused.console());
    }

    @Test
    void aCallThatThrowsWhileMeasuredFailsItsCellOnly() throws Exception {
        Properties p = spinTarget();
        p.setProperty("bench.target.failBatch", "2");
        p.setProperty("bench.target.failAfter", "40");
        Ran ran = sweep(p);
        assertEquals(1, ran.code(), ran.console());
        for (JsonNode cell : ran.run().path("cells")) {
            boolean failing = cell.path("batch").asInt() == 2;
            assertEquals(failing ? "failed" : "ok", cell.path("status").asText(), cell.toString());
            if (failing) {
                assertTrue(cell.path("error").asText().contains("the model server went away at batch 2"), cell.toString());
            }
        }
        String log = Files.readString(ran.runFile().resolveSibling("console.log"));
        assertTrue(log.contains("ext.SpinTarget.lambda$prepare$0(SpinTarget.java:"), "the user's stack trace:\n" + log);
    }
}
