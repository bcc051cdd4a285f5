package io.inferbench.report;

import io.inferbench.BenchmarkException;
import io.inferbench.ChildJvm;
import io.inferbench.analysis.Analysis;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnalyzeCommandTest {
    /** A real default CPU sweep, committed with its stored analysis. */
    static final Path EXAMPLE = Path.of("..", "results", "examples", "cpu-tiny-default", "run.json");

    @TempDir
    Path out;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    @Test
    void analyzeReproducesTheFitsStoredInTheCommittedExample() {
        RunResult example = RunStore.readRun(EXAMPLE);
        Analysis stored = example.analysis();
        assertNotNull(stored, "the committed example must carry its analysis");

        AnalyzeCommand.Result result = AnalyzeCommand.run(EXAMPLE, out, new Properties(),
                new PrintStream(console, true, StandardCharsets.UTF_8));

        assertEquals(List.of(), result.differences());
        assertEquals(stored, result.analysis());
        assertTrue(Files.isRegularFile(out.resolve(ReportWriter.REPORT_FILE)));
        assertTrue(Files.isRegularFile(out.resolve(AnalyzeCommand.ANALYSIS_FILE)));
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("stored analysis reproduced exactly"));
    }

    @Test
    void overriddenThresholdsAreSaidToBeNotComparable() {
        Properties strict = new Properties();
        strict.setProperty("bench.regime.memoryBoundMaxRho", "0.01");
        AnalyzeCommand.Result result = AnalyzeCommand.run(EXAMPLE, out, strict, new PrintStream(console, true, StandardCharsets.UTF_8));
        assertEquals(0.01, result.analysis().thresholds().memoryBoundMaxRho());
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("not comparable"));
    }

    @Test
    void aMissingOrNewerRunFileIsRefused() throws IOException {
        assertTrue(assertThrows(BenchmarkException.class, () -> RunStore.readRun(out.resolve("nope.json")))
                .getMessage().contains("Run file not found"));
        Path newer = Files.writeString(out.resolve("newer.json"), "{\"schemaVersion\": 99, \"cells\": []}");
        assertTrue(assertThrows(BenchmarkException.class, () -> RunStore.readRun(newer))
                .getMessage().contains("has schemaVersion 99"));
    }

    /** analyze runs from run.json alone: in a JVM whose classpath has no ONNX Runtime at all, it still works. */
    @Test
    void analyzeWorksWithoutAnyEngineOnTheClasspath() throws Exception {
        ChildJvm.Result child = ChildJvm.runWithout("onnxruntime", List.of(),
                "analyze", EXAMPLE.toAbsolutePath().toString(), out.toString());
        assertEquals(0, child.exitCode(), child.output());
        assertTrue(child.output().contains("stored analysis reproduced exactly"), child.output());
    }
}
