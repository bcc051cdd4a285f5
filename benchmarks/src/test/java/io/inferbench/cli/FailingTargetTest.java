package io.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.TestPaths;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 54: a target healthy at batch 1 that fails at batch 2, in real fork JVMs (the preflight's and the sweep's),
 * by each way a call can fail: it throws, returns nothing, exits the JVM, never returns (ignoring interrupts), runs
 * out of heap, or overflows its stack. Batch 1 is measured, batch 2 fails with its cause, and the run exits 1, in
 * bounded time. Before the fix a failure at batch 2 failed batch 1 too ("was never begun by the benchmark": JMH, run
 * without forks, gave the next cell the failed one's state), a hang held the run for JMH's 10-minute timeout, and an
 * exit read as a crash of inferbench.
 */
class FailingTargetTest {
    private static final String TARGET = "ext.Failing";
    private static final String SOURCE = """
            package ext;

            import io.inferbench.api.*;

            public class Failing implements InferenceTarget {
                private String mode;
                public void open(TargetContext c) { mode = c.property("mode", "throw"); }
                public Call prepare(Shape shape) {
                    long[] sink = new long[1];
                    if (shape.batch() == 1) {
                        return () -> { long s = 0; for (int i = 0; i < 2000; i++) s += i * 31L ^ s; sink[0] = s; return sink; };
                    }
                    switch (mode) {
                        case "throw": return () -> { throw new IllegalArgumentException("failed at batch " + shape.batch()); };
                        case "null": return () -> null;
                        case "exit": return () -> { System.exit(7); return sink; };
                        case "hang": return () -> { while (true) { try { Thread.sleep(1000); } catch (InterruptedException e) { } } };
                        case "oom": return () -> { java.util.List<long[]> l = new java.util.ArrayList<>(); while (true) l.add(new long[1 << 20]); };
                        case "stack": return () -> deep(0);
                        default: throw new IllegalArgumentException(mode);
                    }
                }
                private static long deep(long n) { return deep(n + 1) + 1; }
            }
            """;

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "throw | IllegalArgumentException: failed at batch 2",
            "null  | Call.run returned null",
            "exit  | exited with code 7 (System.exit(7)",
            "hang  | timed out after 3 s",
            "oom   | out of memory in the fork JVM (Java heap space)",
            "stack | threw java.lang.StackOverflowError"})
    void batchOneIsMeasuredAndBatchTwoFailsWithItsCause(String mode, String cause) throws Exception {
        Path classes = TargetSources.compile(dir.resolve("user"), Map.of(TARGET, SOURCE));
        Properties p = new Properties();
        p.setProperty("bench.target", TARGET);
        p.setProperty("bench.classpath", classes.toString());
        p.setProperty("bench.target.mode", mode);
        p.setProperty("bench.seq", "16");
        p.setProperty("bench.batch", "1,2");
        p.setProperty("bench.warmup", "20");
        p.setProperty("bench.iterations", "100");
        p.setProperty("bench.forks", "1");
        p.setProperty("bench.threads", "1");
        // A short limit only where a call hangs: elsewhere a generous one, so that a busy machine (four loops beside the
        // test once stalled batch 1's healthy JMH iteration past a 1 s limit) fails nothing that works.
        p.setProperty("bench.callTimeoutSeconds", "hang".equals(mode) ? "3" : "60");
        // A small heap, so that running out of it takes a second, not the default heap's GC thrashing.
        p.setProperty("bench.jvmArgs", "-Xmx96m");
        p.setProperty("bench.results", dir.resolve("results").toString());
        p.setProperty("bench.cache", TestPaths.modelCache().toString());
        // A measuring lock of its own: an inferbench run elsewhere on the machine does not hold this test up.
        p.setProperty("java.io.tmpdir", dir.resolve("tmp").toString());
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        long start = System.nanoTime();
        int code = InferbenchMain.run(new String[] {"sweep"}, p, out, out).code();
        double seconds = (System.nanoTime() - start) / 1e9;
        String console = sink.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, console);
        assertTrue(seconds < 150, "bounded: " + seconds + " s");
        JsonNode run;
        try (Stream<Path> files = Files.walk(dir.resolve("results"))) {
            run = new ObjectMapper().readTree(files.filter(f -> f.getFileName().toString().equals("run.json")).findFirst()
                    .orElseThrow().toFile());
        }
        for (JsonNode cell : run.path("cells")) {
            String error = cell.path("error").asText();
            if (cell.path("batch").asInt() == 1) {
                assertEquals("ok", cell.path("status").asText(), cell.toString());
            } else {
                assertEquals("failed", cell.path("status").asText(), cell.toString());
                assertTrue(error.contains(cause), "the cause, " + cause + ": " + error);
                assertFalse(error.contains("crash of inferbench"), error);
            }
        }
        assertTrue(console.contains("preflight: " + TARGET + " on cpu failed at batch 2 x seq 16"), console);
    }
}
