package io.inferbench.results;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 54: a run that failed, or has not finished (a run started beside this one), never becomes
 * {@code results/previous}, which README's compare command takes as the baseline.
 */
class RunStoreBaselineTest {
    private static Path run(Path results, String id, String json) throws IOException {
        Path dir = Files.createDirectories(results.resolve(id));
        Files.writeString(dir.resolve(RunStore.RUN_FILE), json, StandardCharsets.UTF_8);
        return dir;
    }

    @Test
    void onlyAFinishedCleanRunIsABaseline(@TempDir Path results) throws IOException {
        assertNull(RunStore.notABaseline(run(results, "ok", "{\"finishedAt\":\"x\",\"cells\":[{\"status\":\"ok\"}],"
                + "\"stages\":[{\"name\":\"sweep\",\"status\":\"ok\"}]}")));
        assertEquals("has failed cells", RunStore.notABaseline(run(results, "failed", "{\"finishedAt\":\"x\","
                + "\"cells\":[{\"status\":\"ok\"},{\"status\":\"failed\"}]}")));
        assertTrue(RunStore.notABaseline(run(results, "running", "{\"finishedAt\":null,\"cells\":[]}")).startsWith("has not finished"));
        assertTrue(RunStore.notABaseline(run(results, "stage", "{\"finishedAt\":\"x\",\"cells\":[],"
                + "\"stages\":[{\"name\":\"serving\",\"status\":\"failed\"}]}")).contains("serving"));
        assertEquals("has no run.json", RunStore.notABaseline(Files.createDirectories(results.resolve("empty"))));
    }

    /** Linking a new run moves previous to the last run only when that run can be a baseline. */
    @Test
    void aFailedLatestDoesNotBecomePrevious(@TempDir Path results) throws IOException {
        linked(results, "20261201-000000-0001", "{\"finishedAt\":\"x\",\"cells\":[{\"status\":\"ok\"}]}");
        linked(results, "20261201-000000-0002", "{\"finishedAt\":\"x\",\"cells\":[{\"status\":\"ok\"}]}");
        assertEquals(Path.of("20261201-000000-0001"), Files.readSymbolicLink(results.resolve(RunStore.PREVIOUS)));
        linked(results, "20261201-000000-0003", "{\"finishedAt\":\"x\",\"cells\":[{\"status\":\"failed\"}]}");
        assertEquals(Path.of("20261201-000000-0002"), Files.readSymbolicLink(results.resolve(RunStore.PREVIOUS)));
        String said = linked(results, "20261201-000000-0004", "{}");
        assertEquals(Path.of("20261201-000000-0002"), Files.readSymbolicLink(results.resolve(RunStore.PREVIOUS)),
                "the failed run 0003 is not the next baseline");
        assertTrue(said.contains("has failed cells"), said);
    }

    /**
     * A build that measures two subjects (the archetype's target, then its model) twice: each run's previous is the last
     * run of its own subject, so README's compare of previous and latest compares like with like.
     */
    @Test
    void twoSubjectsInOneBuildKeepEachItsOwnBaseline(@TempDir Path results) throws IOException {
        String target = "{\"finishedAt\":\"x\",\"cells\":[{\"status\":\"ok\"}],\"config\":{\"backends\":[\"com.example.Target\"],"
                + "\"models\":[{\"name\":\"none\"}],\"devices\":[\"cpu\"]}}";
        String model = "{\"finishedAt\":\"x\",\"cells\":[{\"status\":\"ok\"}],\"config\":{\"backends\":[\"onnxruntime\"],"
                + "\"models\":[{\"name\":\"tiny\"}],\"devices\":[\"cpu\"]}}";
        RunStore.Subject targetSubject = subject("com.example.Target", "none", "cpu", null);
        RunStore.Subject modelSubject = subject("onnxruntime", "tiny", "cpu", null);
        linked(results, "20261201-000000-0001", target, targetSubject);
        linked(results, "20261201-000000-0002", model, modelSubject);
        linked(results, "20261201-000000-0003", target, targetSubject);
        assertEquals(Path.of("20261201-000000-0001"), Files.readSymbolicLink(results.resolve(RunStore.PREVIOUS)),
                "the target's previous is the target's last run, not the model's");
        linked(results, "20261201-000000-0004", model, modelSubject);
        assertEquals(Path.of("20261201-000000-0002"), Files.readSymbolicLink(results.resolve(RunStore.PREVIOUS)));
        assertEquals(Path.of("20261201-000000-0004"), Files.readSymbolicLink(results.resolve(RunStore.LATEST)));
        String first = linked(results, "20261201-000000-0005", "{}", subject("djl", "tiny", "cpu", null));
        assertTrue(first.contains("no earlier finished run of this subject (djl | tiny | cpu)"), first);
    }

    /** A run of one engine of the default sweep takes the default run as its baseline: they share cells (CI's compare). */
    @Test
    void aNarrowerRunOfTheSameCellsComparesWithTheWiderOne(@TempDir Path results) throws IOException {
        String both = "{\"finishedAt\":\"x\",\"cells\":[{\"status\":\"ok\"}],\"config\":{\"backends\":[\"djl\",\"onnxruntime\"],"
                + "\"models\":[{\"name\":\"tiny\"}],\"devices\":[\"cpu\"]}}";
        linked(results, "20261201-000000-0001", both, subject("djl,onnxruntime", "tiny", "cpu", null));
        linked(results, "20261201-000000-0002", "{}", subject("onnxruntime", "tiny", "cpu", null));
        assertEquals(Path.of("20261201-000000-0001"), Files.readSymbolicLink(results.resolve(RunStore.PREVIOUS)));
        RunStore.Subject ort = subject("onnxruntime", "tiny", "cpu", null);
        assertTrue(subject("djl,onnxruntime", "tiny", "cpu", null).sharesCells(ort));
        assertFalse(ort.sharesCells(subject("onnxruntime", "tiny", "cpu", "generation")), "another cell kind");
        assertFalse(ort.sharesCells(subject("onnxruntime", "small", "cpu", null)), "another model");
        assertFalse(ort.sharesCells(subject("onnxruntime", "tiny", "cuda", null)), "another device");
        assertEquals("djl,onnxruntime | tiny | cpu | generation", subject("onnxruntime,djl", "tiny", "cpu", "generation")
                .toString(), "sorted, as the console says it");
    }

    private static RunStore.Subject subject(String backends, String models, String devices, String kind) {
        return new RunStore.Subject(new java.util.TreeSet<>(List.of(backends.split(","))),
                new java.util.TreeSet<>(List.of(models.split(","))), new java.util.TreeSet<>(List.of(devices.split(","))),
                kind);
    }

    private static String linked(Path results, String id, String json, RunStore.Subject subject) throws IOException {
        RunStore store = RunStore.create(results, id);
        String said = store.linkAsLatest(subject);
        Files.writeString(store.runFile(), json, StandardCharsets.UTF_8);
        return said;
    }

    /** A run made, linked as latest (as a sweep does at its start), then written as it ended. */
    private static String linked(Path results, String id, String json) throws IOException {
        RunStore store = RunStore.create(results, id);
        String said = store.linkAsLatest();
        Files.writeString(store.runFile(), json, StandardCharsets.UTF_8);
        return said;
    }
}
