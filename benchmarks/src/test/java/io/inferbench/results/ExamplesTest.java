package io.inferbench.results;

import io.inferbench.cli.AnalyzeCommandAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The committed examples under {@code results/examples/} show what a run holds today: each is read at the current
 * schema (this fails the day the schema moves on without them: regenerate them with the commands in
 * {@code results/examples/README.md}), each reproduces its stored analysis, and the images the README shows exist.
 */
class ExamplesTest {
    static final Path EXAMPLES = Path.of("..", "results", "examples");

    @TempDir
    Path out;

    private static List<Path> runFiles() throws IOException {
        try (Stream<Path> dirs = Files.list(EXAMPLES)) {
            return dirs.filter(Files::isDirectory).map(d -> d.resolve("run.json")).filter(Files::isRegularFile).sorted().toList();
        }
    }

    @Test
    void everyExampleIsAtTheCurrentSchemaAndReproducesItsAnalysis() throws IOException {
        List<Path> runs = runFiles();
        assertEquals(2, runs.size(), "a default CPU sweep and a run with serving, a text workload and precision variants: " + runs);
        for (Path file : runs) {
            RunResult run = RunStore.readRun(file);
            assertEquals(RunResult.SCHEMA_VERSION, run.schemaVersion(), file + " is schema " + run.schemaVersion()
                    + "; this build writes " + RunResult.SCHEMA_VERSION + ": regenerate it (results/examples/README.md)");
            assertNotNull(run.analysis(), file + " carries its analysis");
            assertNotNull(run.profile(), file + " carries its profile");
            assertNotNull(run.timing(), file + " carries where its time went");
            assertNotNull(run.resources(), file + " carries each cell's resources");
            assertTrue(run.cells().stream().filter(CellResult::measured).allMatch(c -> c.forkRuns().stream().allMatch(
                    f -> f.memory() != null && f.measurement().cpu() != null && f.measurement().energy() != null)),
                    file + ": every fork of every cell recorded its memory, CPU and energy (or why not)");
            assertEquals(List.of(), AnalyzeCommandAccess.differences(file, out.resolve(file.getParent().getFileName())),
                    file + ": analyze reproduces the stored verdicts");
        }
    }

    /**
     * Read into the records and written again, each example is the file it was, key for key and in the same order: a
     * record regrouped by concern ({@link com.fasterxml.jackson.annotation.JsonUnwrapped}) keeps run.json as it was.
     * The file is compared as Jackson writes it, since the examples were trimmed by Python (trim.py), and without what
     * a cell derives when read ({@code unstable}, {@code memoryGrowing}: their rules may have moved on since the run).
     */
    @Test
    void everyExampleReadAndWrittenAgainIsTheSameJson() throws IOException {
        for (Path file : runFiles()) {
            String stored = Json.mapper().writeValueAsString(withoutDerived(Json.mapper().readTree(file.toFile())));
            String rewritten = Json.mapper().writeValueAsString(withoutDerived(Json.mapper().valueToTree(
                    RunStore.readRun(file))));
            if (!stored.equals(rewritten)) {
                List<String> a = stored.lines().toList();
                List<String> b = rewritten.lines().toList();
                int i = 0;
                while (i < Math.min(a.size(), b.size()) && a.get(i).equals(b.get(i))) {
                    i++;
                }
                assertEquals(i < a.size() ? a.get(i) : "(end)", i < b.size() ? b.get(i) : "(end)",
                        file + " read and written again differs first at line " + (i + 1));
            }
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode withoutDerived(com.fasterxml.jackson.databind.JsonNode run) {
        for (com.fasterxml.jackson.databind.JsonNode cell : run.path("cells")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) cell).remove(List.of("unstable", "memoryGrowing"));
        }
        return run;
    }

    @Test
    void theDefaultExampleIsTheDefaultSweepOnBothEngines() {
        RunResult run = RunStore.readRun(EXAMPLES.resolve("cpu-default/run.json"));
        assertEquals(List.of("onnxruntime", "djl"), run.config().plan().backends());
        assertEquals(48, run.cells().stream().filter(CellResult::measured).count());
        assertEquals(6, run.analysis().fits().size());
    }

    @Test
    void theServingExampleHoldsServingAWorkloadAndPrecisionVariants() {
        RunResult run = RunStore.readRun(EXAMPLES.resolve("cpu-serving-workload-precision/run.json"));
        assertNotNull(run.serving(), "serving");
        assertTrue(!run.serving().slaBoundary().isEmpty(), "an SLA search");
        assertNotNull(run.workload(), "a text workload");
        assertNotNull(run.workload().tokenizer(), "real text, tokenized");
        assertNotNull(run.agreement(), "precision variants against a reference");
        assertTrue(run.cells().stream().anyMatch(c -> c.model().endsWith("tiny-int8")), "an int8 variant");
    }

    /** Every image README.md shows is committed. */
    @Test
    void theReadmesImagesExist() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        Matcher m = Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)").matcher(readme);
        int images = 0;
        while (m.find()) {
            images++;
            assertTrue(Files.isRegularFile(Path.of("..").resolve(m.group(1))), "README.md shows a missing image: " + m.group(1));
        }
        assertTrue(images >= 1, "README.md shows a batch-scaling curve");
    }

    /**
     * README.md's console sample is the default example's verdict table, line for line (the rows it shows), so that it
     * agrees with the plot from the same run beneath it.
     */
    @Test
    void theReadmesConsoleSampleIsTheDefaultExamplesVerdictTable() throws IOException {
        RunResult run = RunStore.readRun(EXAMPLES.resolve("cpu-default/run.json"));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        io.inferbench.report.VerdictTable.print(run.analysis(), new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        List<String> table = bytes.toString(java.nio.charset.StandardCharsets.UTF_8).lines().map(String::stripTrailing).toList();
        String readme = Files.readString(Path.of("..", "README.md"));
        java.util.regex.Matcher sample = java.util.regex.Pattern.compile("shows progress per cell, then a table per sequence bucket "
                + "and the verdicts:\n\n```\n(.*?)```", java.util.regex.Pattern.DOTALL).matcher(readme);
        assertTrue(sample.find(), "README.md's console sample");
        List<String> shown = sample.group(1).lines().map(String::stripTrailing).toList();
        List<String> expected = table.stream().filter(l -> l.startsWith("backend") || l.startsWith("onnxruntime  cpu     tiny          64 ")
                || l.startsWith("onnxruntime  cpu     tiny         256 ")).toList();
        assertEquals(expected, shown, "README.md's console sample must be these lines of the default example's verdict table");
    }
}
