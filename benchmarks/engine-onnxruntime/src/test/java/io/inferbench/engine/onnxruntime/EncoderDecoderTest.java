package io.inferbench.engine.onnxruntime;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.SessionSpec;
import io.inferbench.generate.Generation;
import io.inferbench.inputs.InputOptions;
import io.inferbench.inputs.NpyArray;
import io.inferbench.measure.NanoClock;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.ExampleModels;
import io.inferbench.model.ExportFolder;
import io.inferbench.model.ModelSource;
import io.inferbench.model.Seq2SeqReference;
import io.inferbench.model.Seq2SeqWeights;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example encoder-decoders (a T5-like text one, a Whisper-like audio one) generating on ONNX Runtime from their
 * optimum-style folders: one encoder pass, the first decoder pass from the start token, then steps with the
 * cross-attention caches fed unchanged; every greedy token against the double-precision reference, and the cache's
 * bytes, self- and cross-attention, against the formula.
 */
class EncoderDecoderTest {
    private static final long SEED = 42;
    private static final DecoderConfig C = ExampleModels.USER_DECODER_CONFIG;
    private static final int BATCH = 2;
    private static final int SOURCE = 6;
    private static final int NEW_TOKENS = 7;

    @TempDir
    static Path examples;
    private static Seq2SeqReference reference;

    @BeforeAll
    static void write() {
        ExampleModels.write(examples, SEED);
        reference = new Seq2SeqReference(Seq2SeqWeights.generate(C, ExampleModels.AUDIO_FEATURES, SEED));
    }

    private static SessionSpec spec(Path dir, InputOptions inputs) {
        return new SessionSpec(ModelSource.parse(dir.toString()), dir, SEED, Device.parse("cpu"), 1, 1, false, inputs);
    }

    /** Two rounds of a text source's generation, every token against the reference, the cache against the formula. */
    private static void generatesTheTextReference(DecoderSession decoder) {
        long[] source = {5, 17, 300, 2, 999, 41, 7, 64, 5, 900, 12, 3};
        for (int round = 0; round < 2; round++) {
            Generation g = Generation.run(decoder, source, BATCH, SOURCE, NEW_TOKENS, NanoClock.SYSTEM);
            for (int b = 0; b < BATCH; b++) {
                long[] row = java.util.Arrays.copyOfRange(source, b * SOURCE, (b + 1) * SOURCE);
                assertArrayEquals(reference.generate(reference.encodeText(row), ExampleModels.DECODER_START_TOKEN_ID,
                        NEW_TOKENS), g.tokens()[b], "sequence " + b + ", round " + round);
            }
            checkCache(g);
        }
    }

    private static void checkCache(Generation g) {
        long self = 2L * C.layers() * BATCH * C.heads() * NEW_TOKENS * C.headDim() * Float.BYTES;
        long cross = 2L * C.layers() * BATCH * C.heads() * SOURCE * C.headDim() * Float.BYTES;
        assertEquals(cross, g.crossCacheBytes(), "cross-attention: 2 x layers x batch x heads x source x headDim x 4");
        assertEquals(self + cross, g.cacheBytes(), "self-attention over the new tokens, and the cross-attention caches");
        assertTrue(g.encodeNs() > 0 && g.ttftNs() >= g.encodeNs() + g.prefillNs(), "TTFT holds the encoder and the first pass");
    }

    @Test
    void aTextEncoderDecoderGeneratesTheReferenceTokens() {
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec(examples.resolve(ExampleModels.TEXT_SEQ2SEQ),
                InputOptions.NONE), List.of())) {
            assertTrue(decoder.hasEncoder());
            assertTrue(decoder.layout().describe().contains("4 of the cache tensors are cross-attention caches"),
                    decoder.layout().describe());
            generatesTheTextReference(decoder);
        }
    }

    @Test
    void anAudioEncoderDecoderTakesItsFeaturesFromNpyRows(@TempDir Path dir) throws IOException {
        // two rows of [frames, features], as real log-mel frames would come, fed by the any-inputs planner
        float[][][] rows = new float[BATCH][SOURCE][ExampleModels.AUDIO_FEATURES];
        java.util.SplittableRandom random = new java.util.SplittableRandom(9);
        for (float[][] row : rows) {
            for (float[] frame : row) {
                for (int i = 0; i < frame.length; i++) {
                    frame[i] = (float) random.nextGaussian();
                }
            }
        }
        Path npy = dir.resolve("features.npy");
        Files.write(npy, npy(rows));
        Path inputs = dir.resolve("inputs.json");
        Files.writeString(inputs, "{\"inputs\": [{\"name\": \"input_features\", \"type\": \"float32\", \"shape\": [\"batch\", "
                + "\"frames\", " + ExampleModels.AUDIO_FEATURES + "], \"values\": {\"npy\": \"features.npy\"}}]}");
        InputOptions options = new InputOptions("frames", Map.of(), inputs);
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec(examples.resolve(ExampleModels.AUDIO_SEQ2SEQ),
                options), List.of())) {
            Generation g = Generation.run(decoder, new long[BATCH * SOURCE], BATCH, SOURCE, NEW_TOKENS, NanoClock.SYSTEM);
            for (int b = 0; b < BATCH; b++) {
                assertArrayEquals(reference.generate(reference.encodeAudio(rows[b]), ExampleModels.DECODER_START_TOKEN_ID,
                        NEW_TOKENS), g.tokens()[b], "sequence " + b);
            }
            checkCache(g);
        }
    }

    @Test
    void aMergedEncoderDecoderFeedsItsBranchFlagAndGeneratesTheReferenceTokens(@TempDir Path dir) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("merged"));
        for (String file : List.of(ExportFolder.ENCODER, ExportFolder.CONFIG)) {
            Files.copy(examples.resolve(ExampleModels.TEXT_SEQ2SEQ).resolve(file), folder.resolve(file));
        }
        try (java.io.OutputStream out = Files.newOutputStream(folder.resolve(ExportFolder.MERGED))) {
            io.inferbench.model.OnnxSeq2SeqExporter.decoder(Seq2SeqWeights.generate(C, ExampleModels.AUDIO_FEATURES, SEED),
                    io.inferbench.model.OnnxSeq2SeqExporter.Input.TEXT, io.inferbench.model.OnnxSeq2SeqExporter.Graph.MERGED,
                    "merged").writeTo(out);
        }
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec(folder, InputOptions.NONE), List.of())) {
            assertEquals("use_cache_branch", decoder.layout().branchFlag());
            assertTrue(decoder.facts("test").toString().contains("decoder_model_merged.onnx the first decoder pass"),
                    decoder.facts("test").toString());
            generatesTheTextReference(decoder);
        }
    }

    @Test
    void anEncoderDecoderWithoutItsDecoderFlagOrEncoderIsRefused(@TempDir Path dir) throws IOException {
        Path alone = Files.createDirectories(dir.resolve("encoder-alone"));
        Files.copy(examples.resolve(ExampleModels.TEXT_SEQ2SEQ).resolve(ExportFolder.ENCODER), alone.resolve(ExportFolder.ENCODER));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> ModelSource.parse(alone.toString()));
        assertTrue(e.getMessage().contains("an encoder-decoder export") && e.getMessage().contains("with no decoder"), e.getMessage());
        Path folder = Files.createDirectories(dir.resolve("merged-without-flag"));
        Files.copy(examples.resolve(ExampleModels.TEXT_SEQ2SEQ).resolve(ExportFolder.ENCODER), folder.resolve(ExportFolder.ENCODER));
        Files.copy(examples.resolve(ExampleModels.TEXT_SEQ2SEQ).resolve(ExportFolder.WITH_PAST), folder.resolve(ExportFolder.MERGED));
        e = assertThrows(BenchmarkException.class, () -> new OnnxRuntimeEngine().openDecoder(spec(folder, InputOptions.NONE),
                List.of()).close());
        assertTrue(e.getMessage().contains("inputs that generation cannot fill: past_key_values.0.encoder.key"), e.getMessage());
        Path decoderOnly = Files.createDirectories(dir.resolve("no-encoder"));
        for (String file : List.of(ExportFolder.DECODER, ExportFolder.WITH_PAST)) {
            Files.copy(examples.resolve(ExampleModels.TEXT_SEQ2SEQ).resolve(file), decoderOnly.resolve(file));
        }
        e = assertThrows(BenchmarkException.class, () -> new OnnxRuntimeEngine().openDecoder(spec(decoderOnly, InputOptions.NONE),
                List.of()).close());
        assertTrue(e.getMessage().contains("takes encoder_hidden_states") && e.getMessage().contains("encoder_model.onnx"),
                e.getMessage());
    }

    @Test
    void theBuiltInEncoderDecoderIsWrittenOnceAndGeneratesItsReferenceTokens(@TempDir Path cache) {
        ModelSource source = ModelSource.parse(ModelSource.BuiltinSeq2Seq.NAME);
        io.inferbench.model.ModelResolver resolver = new io.inferbench.model.ModelResolver(cache, SEED);
        io.inferbench.model.ResolvedModel resolved = resolver.resolve(source);
        assertEquals(ModelSource.BuiltinSeq2Seq.NAME, resolved.name());
        assertTrue(resolved.description().startsWith("built-in encoder-decoder tiny-seq2seq"), resolved.description());
        assertEquals(resolved.sha256(), resolver.resolve(source).sha256(), "written once, the same bytes");
        long[] source2 = {5, 17, 300, 2, 999, 41};
        SessionSpec spec = new SessionSpec(source, resolver.locate(source), SEED, Device.parse("cpu"), 1, 1, false);
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec, List.of())) {
            Generation g = Generation.run(decoder, source2, 1, source2.length, NEW_TOKENS, NanoClock.SYSTEM);
            Seq2SeqReference builtIn = new Seq2SeqReference(Seq2SeqWeights.generate(ModelSource.BuiltinSeq2Seq.CONFIG,
                    ExampleModels.AUDIO_FEATURES, SEED));
            assertArrayEquals(builtIn.generate(builtIn.encodeText(source2), ExampleModels.DECODER_START_TOKEN_ID, NEW_TOKENS),
                    g.tokens()[0]);
        }
    }

    @Test
    void anEncoderOfAnotherModelIsRefused(@TempDir Path dir) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("mixed"));
        for (String file : List.of(ExportFolder.DECODER, ExportFolder.WITH_PAST, ExportFolder.CONFIG)) {
            Files.copy(examples.resolve(ExampleModels.TEXT_SEQ2SEQ).resolve(file), folder.resolve(file));
        }
        DecoderConfig narrow = new DecoderConfig(C.vocabSize(), 32, C.layers(), C.heads(), C.ffnHidden(), C.maxPositions());
        try (java.io.OutputStream out = Files.newOutputStream(folder.resolve(ExportFolder.ENCODER))) {
            io.inferbench.model.OnnxSeq2SeqExporter.encoder(Seq2SeqWeights.generate(narrow, ExampleModels.AUDIO_FEATURES, SEED),
                    io.inferbench.model.OnnxSeq2SeqExporter.Input.TEXT, "hidden 32").writeTo(out);
        }
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> new OnnxRuntimeEngine().openDecoder(
                spec(folder, InputOptions.NONE), List.of()).close());
        assertTrue(e.getMessage().contains("last_hidden_state [batch_size, encoder_sequence_length, 32] does not fit")
                && e.getMessage().contains("encoder_hidden_states [batch_size, encoder_sequence_length, 64]"), e.getMessage());
    }

    /** A float32 {@code .npy} of {@code [rows, frames, features]}. */
    private static byte[] npy(float[][][] rows) {
        String header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + rows.length + ", " + rows[0].length + ", "
                + rows[0][0].length + "), }";
        int total = 10 + header.length() + 1;
        String padded = header + " ".repeat((64 - total % 64) % 64) + "\n";
        ByteBuffer out = ByteBuffer.allocate(10 + padded.length() + rows.length * rows[0].length * rows[0][0].length * 4)
                .order(ByteOrder.LITTLE_ENDIAN);
        out.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}).putShort((short) padded.length());
        out.put(padded.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        for (float[][] row : rows) {
            for (float[] frame : row) {
                for (float v : frame) {
                    out.putFloat(v);
                }
            }
        }
        return out.array();
    }
}
