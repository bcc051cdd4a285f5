package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.ChildJvm;
import io.inferbench.analysis.Analysis;
import io.inferbench.report.ReportWriter;
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
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnalyzeCommandTest {
    /**
     * A real default CPU sweep of an old build, with its stored analysis (schema 2: no borderline labels, fixed pass
     * counts): older files must still be read and reproduced. The current examples are checked by {@code ExamplesTest}.
     */
    static final Path EXAMPLE = Path.of("src", "test", "resources", "runs", "schema2-cpu-tiny-default.json");

    @TempDir
    Path out;

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();

    @Test
    void analyzeReproducesTheFitsStoredInTheCommittedExample() {
        RunResult example = RunStore.readRun(EXAMPLE);
        Analysis stored = example.analysis();
        assertNotNull(stored, "the committed example must carry its analysis");

        AnalyzeCommand.Result result = AnalyzeCommand.analyze(EXAMPLE, out, new Properties(),
                new PrintStream(console, true, StandardCharsets.UTF_8));

        assertEquals(List.of(), result.differences());
        for (int i = 0; i < stored.fits().size(); i++) {
            assertEquals(stored.fits().get(i), AnalyzeCommand.withoutBorderline(result.analysis().fits().get(i)));
        }
        assertTrue(Files.isRegularFile(out.resolve(ReportWriter.REPORT_FILE)));
        assertTrue(Files.isRegularFile(out.resolve(AnalyzeCommand.ANALYSIS_FILE)));
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("stored analysis reproduced exactly"));
    }

    @Test
    void overriddenThresholdsAreSaidToBeNotChecked() {
        Properties strict = new Properties();
        strict.setProperty("bench.regime.memoryBoundMaxRho", "0.01");
        AnalyzeCommand.Result result = AnalyzeCommand.analyze(EXAMPLE, out, strict, new PrintStream(console, true, StandardCharsets.UTF_8));
        assertEquals(0.01, result.analysis().thresholds().memoryBoundMaxRho());
        assertTrue(console.toString(StandardCharsets.UTF_8).contains("NOT CHECKED: the thresholds given"));
    }

    @Test
    void aMissingOrNewerRunFileIsRefused() throws IOException {
        assertTrue(assertThrows(BenchmarkException.class, () -> RunStore.readRun(out.resolve("nope.json")))
                .getMessage().contains("Run file not found"));
        Path newer = Files.writeString(out.resolve("newer.json"), "{\"schemaVersion\": 99, \"cells\": []}");
        assertTrue(assertThrows(BenchmarkException.class, () -> RunStore.readRun(newer))
                .getMessage().contains("has schemaVersion 99"));
    }

    /**
     * analyze runs from run.json alone: in a JVM whose classpath has neither ONNX Runtime nor any DJL jar (API, engine,
     * JNI, natives), it still works.
     */
    @Test
    void analyzeWorksWithoutAnyEngineOnTheClasspath() throws Exception {
        ChildJvm.Result child = ChildJvm.runWithout(List.of("onnxruntime", "/ai/djl/", "engine-djl"), List.of(), ChildJvm.TIMEOUT,
                "analyze", EXAMPLE.toAbsolutePath().toString(), out.toString());
        assertEquals(0, child.exitCode(), child.output());
        assertTrue(child.output().contains("stored analysis reproduced exactly"), child.output());
    }

    /** A main that outlives any test's patience. */
    public static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(600_000);
        }
    }

    /** The timeout is real: a child that outlives it is stopped and reported, not waited for. */
    @Test
    void aChildThatHangsIsStoppedAtTheTimeout() {
        long start = System.nanoTime();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ChildJvm.run(Sleeper.class.getName(),
                List.of("onnxruntime"), List.of(), Duration.ofSeconds(2)));
        assertTrue(e.getMessage().contains("did not finish in 2 s"), e.getMessage());
        assertTrue((System.nanoTime() - start) / 1e9 < 60, "stopped long before the child would have ended");
    }
}
