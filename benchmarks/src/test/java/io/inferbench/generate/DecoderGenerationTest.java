package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.djl.DjlPyTorchEngine;
import io.inferbench.engine.onnxruntime.OnnxRuntimeEngine;
import io.inferbench.inputs.KvPair;
import io.inferbench.measure.NanoClock;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderPreset;
import io.inferbench.model.DecoderReference;
import io.inferbench.model.DecoderWeights;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The built-in tiny decoder generating on both engines, against the double-precision reference. */
class DecoderGenerationTest {
    private static final long SEED = 42;
    private static final int BATCH = 2;
    private static final int PROMPT = 8;
    private static final int NEW_TOKENS = 6;

    @TempDir
    static Path cache;
    private static long[] prompt;
    private static long[][] expected;

    @BeforeAll
    static void reference() {
        DecoderConfig c = DecoderPreset.TINY_DECODER.config();
        SplittableRandom random = new SplittableRandom(7);
        prompt = new long[BATCH * PROMPT];
        for (int i = 0; i < prompt.length; i++) {
            prompt[i] = random.nextInt(c.vocabSize());
        }
        DecoderReference reference = new DecoderReference(DecoderWeights.generate(c, SEED));
        expected = new long[BATCH][];
        for (int b = 0; b < BATCH; b++) {
            expected[b] = reference.generate(java.util.Arrays.copyOfRange(prompt, b * PROMPT, (b + 1) * PROMPT), NEW_TOKENS).tokens();
        }
    }

    private static SessionSpec spec() {
        ModelSource source = new ModelSource.BuiltinDecoder(DecoderPreset.TINY_DECODER);
        Path file = new ModelResolver(cache, SEED).resolve(source).path();
        return new SessionSpec(source, file, SEED, Device.parse("cpu"), 1, 1, false);
    }

    @Test
    void onnxRuntimeGeneratesTheReferenceTokens() {
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec(), List.of())) {
            checkAgainstReference(decoder);
        }
    }

    @Test
    void djlGeneratesTheReferenceTokens() {
        try (DecoderSession decoder = new DjlPyTorchEngine(io.inferbench.TestPaths.nativeCache()).openDecoder(spec(), List.of())) {
            checkAgainstReference(decoder);
        }
    }

    private static void checkAgainstReference(DecoderSession decoder) {
        for (int round = 0; round < 2; round++) {
            Generation g = Generation.run(decoder, prompt, BATCH, PROMPT, NEW_TOKENS, NanoClock.SYSTEM);
            for (int b = 0; b < BATCH; b++) {
                assertArrayEquals(expected[b], g.tokens()[b], "sequence " + b + " of round " + round);
            }
            DecoderConfig c = DecoderPreset.TINY_DECODER.config();
            long positions = PROMPT + NEW_TOKENS - 1;
            assertEquals(2L * c.layers() * BATCH * c.heads() * positions * c.headDim() * Float.BYTES, g.cacheBytes());
            assertTrue(g.ttftNs() >= g.prefillNs(), "time to first token includes the prefill");
            assertEquals(NEW_TOKENS - 1, g.stepNs().length);
        }
    }

    @Test
    void aUserDecoderWithOtherCacheNamesRunsOncePaired(@TempDir Path dir) {
        io.inferbench.model.ExampleModels.write(dir, SEED);
        Path file = dir.resolve(io.inferbench.model.ExampleModels.USER_DECODER);
        ModelSource source = new ModelSource.OnnxFile(file);
        SessionSpec spec = new SessionSpec(source, file, SEED, Device.parse("cpu"), 1, 1, false);
        BenchmarkException refused = assertThrows(BenchmarkException.class, () -> new OnnxRuntimeEngine().openDecoder(spec, List.of()));
        assertTrue(refused.getMessage().contains("k_cache_0, v_cache_0, k_cache_1, v_cache_1"), refused.getMessage());
        List<KvPair> pairs = KvPair.parse("k_cache_0:k_cache_0_next,v_cache_0:v_cache_0_next,k_cache_1:k_cache_1_next,"
                + "v_cache_1:v_cache_1_next");
        DecoderReference reference = new DecoderReference(DecoderWeights.generate(io.inferbench.model.ExampleModels.USER_DECODER_CONFIG, SEED));
        long[] shortPrompt = {5, 17, 300, 2, 999};
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec, pairs)) {
            Generation g = Generation.run(decoder, shortPrompt, 1, shortPrompt.length, 5, NanoClock.SYSTEM);
            assertArrayEquals(reference.generate(shortPrompt, 5).tokens(), g.tokens()[0]);
        }
    }
}
