package io.inferbench.results;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

    /** A run made, linked as latest (as a sweep does at its start), then written as it ended. */
    private static String linked(Path results, String id, String json) throws IOException {
        RunStore store = RunStore.create(results, id);
        String said = store.linkAsLatest();
        Files.writeString(store.runFile(), json, StandardCharsets.UTF_8);
        return said;
    }
}
