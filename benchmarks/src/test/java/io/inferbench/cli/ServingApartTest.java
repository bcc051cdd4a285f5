package io.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.TestPaths;
import io.inferbench.runner.InProcessForkExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A target's serving in a JVM of its own (issue 65): a call that never returns there, or a {@code System.exit}, ends
 * that JVM, not the run. The cells, and every point served before it, stay in run.json, and the serving stage is
 * recorded as failed with the reason. The target misbehaves only outside the test's JVM, some seconds after it opened,
 * so that the sweep's cells (in this JVM) are healthy and the serving JVM's first points may finish.
 */
class ServingApartTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET = "ext.Stubborn";
    private static final String SOURCE = """
            package ext;

            import io.inferbench.api.*;

            public class Stubborn implements InferenceTarget {
                private long openedNs;
                private boolean apart;
                private String how;

                @Override
                public void open(TargetContext context) {
                    openedNs = System.nanoTime();
                    apart = ProcessHandle.current().pid() != Long.parseLong(context.property("testPid", "0"));
                    how = context.property("how", "hang");
                }

                @Override
                public Call prepare(Shape shape) {
                    return () -> {
                        long start = System.nanoTime();
                        while (System.nanoTime() - start < 200_000) {
                            Thread.onSpinWait();
                        }
                        if (apart && System.nanoTime() - openedNs > 6_000_000_000L) {
                            if (how.equals("exit")) {
                                System.exit(7);
                            }
                            while (true) {
                                Thread.sleep(1000);
                            }
                        }
                        return "ok";
                    };
                }
            }
            """;

    @TempDir
    Path dir;

    private record Ran(int code, String console, JsonNode run) {
    }

    private Ran serve(String how) throws Exception {
        Path classes = io.inferbench.cli.TargetSources.compile(dir.resolve("user"), Map.of(TARGET, SOURCE));
        Properties p = new Properties();
        p.setProperty("bench.target", TARGET);
        p.setProperty("bench.classpath", classes.toString());
        p.setProperty("bench.target.testPid", String.valueOf(ProcessHandle.current().pid()));
        p.setProperty("bench.target.how", how);
        p.setProperty("bench.seq", "16");
        p.setProperty("bench.batch", "1");
        p.setProperty("bench.warmup", "5");
        p.setProperty("bench.iterations", "30");
        p.setProperty("bench.forks", "1");
        p.setProperty("bench.rate", "100,150,200,250,300,350,400,450");
        p.setProperty("bench.serveSeconds", "1");
        p.setProperty("bench.callTimeoutSeconds", "3");
        p.setProperty("bench.results", dir.resolve("results").toString());
        p.setProperty("bench.cache", TestPaths.modelCache().toString());
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        int code = SweepCommand.run(p, out, options -> new InProcessForkExecutor(), true).code();
        Path runFile;
        try (Stream<Path> files = Files.walk(dir.resolve("results"))) {
            runFile = files.filter(f -> f.getFileName().toString().equals("run.json")).findFirst().orElseThrow();
        }
        return new Ran(code, sink.toString(StandardCharsets.UTF_8), JSON.readTree(runFile.toFile()));
    }

    @Test
    void aCallThatNeverReturnsWhileServingStopsTheServingJvmAndKeepsEverythingBeforeIt() throws Exception {
        Ran ran = serve("hang");
        assertEquals(1, ran.code(), "a finding about the code, not a crash of the harness: " + ran.console());
        assertEquals(1, ran.run().path("cells").size(), ran.console());
        assertTrue(ran.run().path("cells").get(0).path("latencyMs").path("count").asLong() > 0, "the cell is kept");
        JsonNode serving = stage(ran, "serving");
        assertEquals("failed in the code under test", serving.path("status").asText(), serving.toString());
        String error = serving.path("error").asText();
        assertTrue(error.contains("timed out after 3 s while serving: the target's call did not return"), error);
        assertTrue(error.contains("Stubborn"), "where the call was: " + error);
        long printed = ran.console().lines().filter(l -> l.contains("rps achieved")).count();
        assertTrue(printed > 0, "the first points finish before the target stops: " + ran.console());
        assertEquals(printed, ran.run().path("serving").path("points").size(),
                "every point the serving JVM said it finished is in run.json: " + ran.console());
    }

    @Test
    void aTargetThatExitsTheServingJvmFailsServingAlone() throws Exception {
        Ran ran = serve("exit");
        assertEquals(1, ran.code(), ran.console());
        assertEquals(1, ran.run().path("cells").size(), ran.console());
        String error = stage(ran, "serving").path("error").asText();
        assertTrue(error.contains("exited with code 7"), error);
        assertTrue(ran.console().contains("run written to"), "the run ends as a run: " + ran.console());
    }

    private static JsonNode stage(Ran ran, String name) {
        for (JsonNode stage : ran.run().path("stages")) {
            if (stage.path("name").asText().equals(name)) {
                return stage;
            }
        }
        throw new AssertionError("no stage " + name + " in " + ran.run().path("stages"));
    }
}
