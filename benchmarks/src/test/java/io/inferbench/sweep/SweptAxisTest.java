package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.cli.Settings;
import io.inferbench.model.ExampleModels;
import io.inferbench.runner.Cell;
import io.inferbench.runner.SweepOptions;
import io.inferbench.runner.TestOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A model with no axis for the sweep's lengths runs batch only; what cannot be planned that way is refused. */
class SweptAxisTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void models() {
        ExampleModels.write(dir, 42);
    }

    private static Properties options(String models) {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        p.setProperty("bench.model", models);
        p.remove("bench.seq");
        p.setProperty(Settings.ROOT_PROPERTY, Path.of("..").toAbsolutePath().normalize().toString());
        return p;
    }

    private static String cnn() {
        return dir.resolve(ExampleModels.IMAGE_CNN).toString();
    }

    @Test
    void anImageModelRunsOneCellPerBatchAtSeqLenZero() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        SweepOptions bound = SweptAxis.bind(Settings.sweep(options(cnn())), false, false,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        assertEquals(List.of(0), bound.plan().seqLens());
        assertNull(bound.plan().bucketsFile(), "the bucket file's lengths are not used");
        assertEquals(List.of(1, 2), Cell.plan(bound, new ForwardKind()).stream().map(Cell::batch).toList());
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("runs batch only"), log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void tokenModelsKeepTheirLengths() {
        SweepOptions options = Settings.sweep(TestOptions.minimal(dir.resolve("results")));
        assertSame(options, SweptAxis.bind(options, true, true, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
    }

    @Test
    void lengthsForAModelWithoutAnAxisAreRefused() {
        Properties p = options(cnn());
        p.setProperty("bench.seq", "64");
        String message = assertThrows(BenchmarkException.class, () -> SweptAxis.bind(Settings.sweep(p), true, false,
                System.out)).getMessage();
        assertTrue(message.contains("drop -Dbench.seq"), message);
    }

    @Test
    void batchOnlyAndSweptModelsInOneRunAreRefused() {
        String message = assertThrows(BenchmarkException.class, () -> SweptAxis.bind(Settings.sweep(options(cnn() + ",tiny")),
                false, false, System.out)).getMessage();
        assertTrue(message.contains("run them in separate runs"), message);
    }

    @Test
    void aTextWorkloadRefusesAModelWithoutTokenIds() {
        String message = assertThrows(BenchmarkException.class, () -> SweptAxis.bind(Settings.sweep(options(cnn())),
                false, true, System.out)).getMessage();
        assertTrue(message.contains("takes no token ids") && message.contains("pixel_values float32 [batch,3,64,64]"), message);
    }

    @Test
    void badAxisBindingsAreRefusedWhenTheSettingsAreRead() {
        Properties p = options(cnn());
        p.setProperty("bench.dims", "frames");
        assertTrue(assertThrows(BenchmarkException.class, () -> Settings.sweep(p)).getMessage().contains("give NAME=SIZE pairs"));
        p.setProperty("bench.dims", "frames=0");
        assertTrue(assertThrows(BenchmarkException.class, () -> Settings.sweep(p)).getMessage().contains("positive sizes"));
        p.setProperty("bench.dims", "frames=4,frames=5");
        assertTrue(assertThrows(BenchmarkException.class, () -> Settings.sweep(p)).getMessage().contains("twice"));
        p.remove("bench.dims");
        p.setProperty("bench.inputs", dir.resolve("missing.json").toString());
        assertTrue(assertThrows(BenchmarkException.class, () -> Settings.sweep(p)).getMessage().contains("is not a readable file"));
    }
}
