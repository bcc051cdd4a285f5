package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.Settings;
import io.inferbench.model.ExampleModels;
import io.inferbench.model.ModelSource;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 54, item 7: an encoder-decoder's decoder positions hold its own prompt (the start token) and the new tokens,
 * never the source: Whisper's config gives 64 target positions and a default run's longest source of 512 was refused
 * against them.
 */
class EncoderDecoderPositionsTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void write() {
        ExampleModels.write(dir, 42);
    }

    /** The example folder with its config.json giving {@code positions} target positions. */
    private static Path withPositions(String example, int positions) throws IOException {
        Path folder = Files.createDirectories(dir.resolve(example + "-" + positions));
        try (var files = Files.list(dir.resolve(example))) {
            for (Path f : files.toList()) {
                Files.copy(f, folder.resolve(f.getFileName()));
            }
        }
        Path config = folder.resolve("config.json");
        Files.writeString(config, Files.readString(config, StandardCharsets.UTF_8)
                .replaceAll("\"(max_target_positions|n_positions)\": \\d+", "\"$1\": " + positions), StandardCharsets.UTF_8);
        return folder;
    }

    private static SweepOptions options(Path model, String seq) {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", model.toString());
        p.setProperty("bench.seq", seq);
        p.setProperty("bench.generate", "8");
        return Settings.sweep(p);
    }

    @Test
    void theSourcesLengthIsNotTheDecodersPositions() throws IOException {
        Path whisper = withPositions(ExampleModels.AUDIO_SEQ2SEQ, 64);
        GenerationKind kind = new GenerationKind(8, List.of());
        assertDoesNotThrow(() -> kind.checkModel(ModelSource.parse(whisper.toString()), options(whisper, "64,256,512")));
        GenerationKind long70 = new GenerationKind(70, List.of());
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> long70.checkModel(ModelSource.parse(whisper.toString()), options(whisper, "16")));
        assertTrue(e.getMessage().contains("the decoder's start token and 70 new tokens do not fit"), e.getMessage());
    }

    @Test
    void aDecoderAlonesPromptStillCounts() throws IOException {
        Path decoder = withPositions(ExampleModels.MERGED_FOLDER, 64);
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> new GenerationKind(8, List.of())
                .checkModel(ModelSource.parse(decoder.toString()), options(decoder, "64")));
        assertTrue(e.getMessage().contains("the longest prompt (64) plus 8 new tokens does not fit"), e.getMessage());
    }
}
