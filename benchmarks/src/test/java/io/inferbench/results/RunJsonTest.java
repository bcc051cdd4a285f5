package io.inferbench.results;

import io.inferbench.Locales;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The run.json format: sealed by a golden file, the same under every default locale. */
class RunJsonTest {
    static final String GOLDEN = "run-v11.json";
    /** A run of the schema before, as that version wrote it: read and written again unchanged. */
    static final String PREVIOUS = "run-v10.json";

    @TempDir
    Path dir;

    @AfterEach
    void restoreLocale() {
        Locales.restore();
    }

    /** After a deliberate format change, run once with -Dgolden.update=true, then review the diff of the golden file. */
    @ParameterizedTest
    @MethodSource("io.inferbench.Locales#all")
    void runJsonMatchesTheGoldenFileUnderEveryLocale(Locale locale) throws IOException {
        Locales.use(locale);
        String written = Json.mapper().writeValueAsString(SampleRuns.sampleRun());
        if (Boolean.getBoolean("golden.update") && locale.equals(Locale.ROOT)) {
            Files.writeString(Path.of("src/test/resources/golden/" + GOLDEN), written + "\n");
            return;
        }
        try (InputStream golden = getClass().getResourceAsStream("/golden/" + GOLDEN)) {
            assertNotNull(golden, "golden file missing; regenerate with -Dgolden.update=true and review it");
            assertEquals(new String(golden.readAllBytes(), StandardCharsets.UTF_8).strip(), written.strip(), "locale " + locale);
        }
    }

    @Test
    void aRunOfThePreviousSchemaReadsIntoTheConfigsConcernsAndWritesBackTheSameFields() throws IOException {
        byte[] previous;
        try (InputStream golden = getClass().getResourceAsStream("/golden/" + PREVIOUS)) {
            assertNotNull(golden);
            previous = golden.readAllBytes();
        }
        RunResult run = Json.mapper().readValue(previous, RunResult.class);
        RunConfig c = run.config();
        assertEquals(List.of(1, 2, 3, 4), c.plan().batches());
        assertEquals("model", c.forkJvms().isolation());
        assertEquals("-Xmx4g", c.forkJvms().forkJvmArgs());
        assertEquals(2, c.engines().intraOpThreads());
        assertEquals("reuse", c.engines().malloc());
        assertEquals(42L, c.rules().seed());
        assertEquals("verify -Dbench.seq=64", c.provenance().mavenCommand());
        assertEquals(Json.mapper().readTree(previous), Json.mapper().readTree(Json.mapper().writeValueAsBytes(run)),
                "every field of the flat config where it was, nothing added");
    }

    @Test
    void roundTripsUnchangedUnderACommaDecimalLocale() throws IOException {
        Locales.use(Locale.GERMANY);
        RunResult run = SampleRuns.sampleRun();
        Path file = dir.resolve("run.json");
        RunStore.writeAtomically(file, out -> Json.mapper().writeValue(out, run));
        String text = Files.readString(file);
        assertFalse(text.matches("(?s).*\"p50Ms\" : \\d+,\\d.*"), "a decimal comma reached the JSON");
        assertEquals(run, RunStore.readRun(file));
        Locales.use(Locale.ROOT);
        assertEquals(text, Json.mapper().writeValueAsString(RunStore.readRun(file)));
    }
}
