package io.inferbench.cli;

import io.inferbench.runner.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Generation's settings outside a generation run, and the reverse, are refused before anything is made or measured. */
class GenerationSettingsTest {
    @TempDir
    Path dir;

    private String refused(String... keyValues) {
        return refused(true, keyValues);
    }

    /** Exit 2; with {@code nothingMade}, before the results folder exists (a check in the plan, not in the preflight). */
    private String refused(boolean nothingMade, String... keyValues) {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
        assertEquals(ExitCode.BAD_INPUT, InferbenchMain.run(new String[] {"sweep"}, p, out, out));
        if (nothingMade) {
            assertFalse(Files.exists(dir.resolve("results")), "nothing was created, nothing measured");
        } else {
            assertFalse(Files.exists(dir.resolve("results").resolve("latest").resolve("run.json")), "nothing measured");
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aDecoderInASweepAsksForGeneration() {
        String message = refused("bench.model", "tiny-decoder");
        assertTrue(message.contains("tiny-decoder is a decoder") && message.contains("-Dbench.generate=16"), message);
    }

    @Test
    void kvPairsWithoutGenerationAreRefused() {
        String message = refused("bench.kvPairs", "a:b");
        assertTrue(message.contains("-Dbench.kvPairs pairs a decoder's cache") && message.contains("-Dbench.generate=N"), message);
    }

    @Test
    void servingOptionsWithGenerationAreRefused() {
        String message = refused("bench.model", "tiny-decoder", "bench.generate", "4", "bench.concurrency", "2");
        assertTrue(message.contains("-Dbench.concurrency does not apply to generation"), message);
    }

    @Test
    void loadSettingsWithoutGenerationAreRefused() {
        for (String setting : new String[] {"bench.batching", "bench.sla.ttftMs", "bench.sla.tpotMs"}) {
            String message = refused(setting, setting.equals("bench.batching") ? "static" : "50");
            assertTrue(message.contains("-D" + setting + " is for generation under load: add -Dbench.generate=N"), message);
        }
    }

    @Test
    void anSloWithoutARateOrASearchIsRefused() {
        String message = refused("bench.model", "tiny-decoder", "bench.generate", "8", "bench.sla.ttftMs", "50");
        assertTrue(message.contains("an SLO (-Dbench.sla.ttftMs, -Dbench.sla.tpotMs) judges requests under load, and none "
                + "was asked for") && message.contains("-Dbench.batching=static,continuous"), message);
    }

    @Test
    void anEmptyRangeOfNewTokensIsRefused() {
        String message = refused("bench.model", "tiny-decoder", "bench.generate", "64-16", "bench.rate", "20");
        assertTrue(message.contains("-Dbench.generate=64-16 is an empty range of new tokens"), message);
        message = refused("bench.model", "tiny-decoder", "bench.generate", "16-64");
        assertTrue(message.contains("draws each request's new tokens under load, and no load was asked for"), message);
    }

    @Test
    void newTokensBeyondABuiltInsPositionsAreRefused() {
        String message = refused(false, "bench.model", "tiny-decoder", "bench.generate", "16-2100", "bench.seq", "64",
                "bench.rate", "20", "bench.backend", "onnxruntime");
        assertTrue(message.contains("2100 new tokens does not fit"), message);
    }

    @Test
    void continuousBatchingOfADecoderWithoutAnAttentionMaskIsRefused() {
        io.inferbench.model.ExampleModels.write(dir.resolve("examples"), 42);
        String model = dir.resolve("examples").resolve(io.inferbench.model.ExampleModels.USER_DECODER).toString();
        String message = refused(false, "bench.model", model, "bench.kvPairs", "k_cache_0:k_cache_0_next,"
                + "v_cache_0:v_cache_0_next,k_cache_1:k_cache_1_next,v_cache_1:v_cache_1_next", "bench.generate", "4",
                "bench.seq", "16", "bench.batch", "1,2", "bench.rate", "20", "bench.backend", "onnxruntime");
        assertTrue(message.contains("has no attention_mask input, so a row cannot be padded")
                && message.contains("-Dbench.batching=static and one prompt length"), message);
    }

    @Test
    void aDecoderOnAnEngineWithoutRowsIsRefusedUnderLoad() {
        String message = refused(false, "bench.model", "tiny-decoder", "bench.generate", "4", "bench.seq", "16",
                "bench.batch", "1,2", "bench.rate", "20", "bench.backend", "djl");
        assertTrue(message.contains("cannot be served under load") && message.contains("-Dbench.backend=onnxruntime"),
                message);
    }

    @Test
    void anExportFolderInASweepAsksForGenerationOrOneFile() {
        io.inferbench.model.ExampleModels.write(dir.resolve("examples"), 42);
        String folder = dir.resolve("examples").resolve(io.inferbench.model.ExampleModels.MERGED_FOLDER).toString();
        String message = refused("bench.model", folder);
        assertTrue(message.contains("is a decoder with a key/value cache") && message.contains("give the path of its .onnx file"),
                message);
    }

    @Test
    void anExportFolderRefusesAPromptPastItsConfigsPositions() {
        io.inferbench.model.ExampleModels.write(dir.resolve("examples"), 42);
        String folder = dir.resolve("examples").resolve(io.inferbench.model.ExampleModels.SPLIT_FOLDER).toString();
        String message = refused(false, "bench.model", folder, "bench.generate", "16", "bench.seq", "500", "bench.backend",
                "onnxruntime");
        assertTrue(message.contains("config.json gives 512 positions") && message.contains("lower -Dbench.seq"), message);
    }

    @Test
    void samplingOutOfRangeOrWithoutGenerationIsRefused() {
        String message = refused("bench.model", "tiny-decoder", "bench.generate", "4", "bench.sampling", "temperature=0,topK=5");
        assertTrue(message.contains("temperature=0.0 is out of range: it must be above 0"), message);
        message = refused("bench.sampling", "topK=5");
        assertTrue(message.contains("-Dbench.sampling picks a decoder's tokens for generation, which was not asked for"), message);
    }
}
