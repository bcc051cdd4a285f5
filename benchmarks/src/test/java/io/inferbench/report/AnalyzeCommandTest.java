package io.inferbench.report;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.Analysis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

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
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String withoutEngines = Arrays.stream(classpath.split(File.pathSeparator))
                .filter(entry -> !entry.contains("onnxruntime"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(classpath.contains("onnxruntime") && !withoutEngines.contains("onnxruntime"));
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true", "-cp", withoutEngines, "io.inferbench.jmh.InferbenchMain",
                "analyze", EXAMPLE.toAbsolutePath().toString(), out.toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "analyze did not finish");
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("stored analysis reproduced exactly"), output);
    }
}
