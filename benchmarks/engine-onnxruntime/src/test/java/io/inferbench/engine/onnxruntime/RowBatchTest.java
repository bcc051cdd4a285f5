package io.inferbench.engine.onnxruntime;

import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.RowBatch;
import io.inferbench.engine.SessionSpec;
import io.inferbench.model.DecoderConfig;
import io.inferbench.model.DecoderPreset;
import io.inferbench.model.DecoderReference;
import io.inferbench.model.DecoderWeights;
import io.inferbench.model.ExampleModels;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rows that join and leave a running batch, each padded to the others' length with the attention mask, make exactly the
 * tokens each prompt makes alone in the double-precision reference: the padding is masked out and each row's positions
 * are its own.
 */
class RowBatchTest {
    private static final long SEED = 42;

    @TempDir
    static Path cache;

    /** Prompts of different lengths, each with its own number of new tokens. */
    private static final int[] PROMPTS = {5, 9, 3, 7, 4};
    private static final int[] NEW_TOKENS = {6, 3, 7, 4, 5};

    private static long[] prompt(int i, int vocab) {
        SplittableRandom random = new SplittableRandom(100 + i);
        long[] ids = new long[PROMPTS[i]];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = random.nextInt(vocab);
        }
        return ids;
    }

    private static SessionSpec builtin(DecoderPreset preset) {
        ModelSource source = new ModelSource.BuiltinDecoder(preset);
        Path file = new ModelResolver(cache, SEED).resolve(source).path();
        return new SessionSpec(source, file, SEED, Device.parse("cpu"), 1, 1, false);
    }

    @Test
    void rowsJoiningAndLeavingMakeTheTokensEachPromptMakesAlone() {
        DecoderConfig c = DecoderPreset.TINY_DECODER.config();
        DecoderReference reference = new DecoderReference(DecoderWeights.generate(c, SEED));
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(builtin(DecoderPreset.TINY_DECODER), List.of());
             RowBatch rows = decoder.rows()) {
            assertNotNull(rows);
            assertTrue(rows.pads(), "the built-in takes an attention_mask since generator version 2");
            long[][] made = drive(rows, c.vocabSize());
            for (int i = 0; i < PROMPTS.length; i++) {
                assertArrayEquals(reference.generate(prompt(i, c.vocabSize()), NEW_TOKENS[i]).tokens(), made[i],
                        "request " + i + " (prompt " + PROMPTS[i] + ")");
            }
            assertEquals(0, rows.rows());
        }
    }

    /** The merged folder (branch flag) and the split pair (the prefill in its own graph) batch rows the same way. */
    @Test
    void exportFoldersBatchRowsTheSameWay() {
        Path dir = cache.resolve("examples");
        ExampleModels.write(dir, SEED);
        DecoderConfig c = ExampleModels.USER_DECODER_CONFIG;
        DecoderReference reference = new DecoderReference(DecoderWeights.generate(c, SEED));
        for (String folder : List.of(ExampleModels.MERGED_FOLDER, ExampleModels.SPLIT_FOLDER)) {
            ModelSource source = ModelSource.parse(dir.resolve(folder).toString());
            SessionSpec spec = new SessionSpec(source, dir.resolve(folder), SEED, Device.parse("cpu"), 1, 1, false);
            try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(spec, List.of()); RowBatch rows = decoder.rows()) {
                long[][] made = drive(rows, c.vocabSize());
                for (int i = 0; i < PROMPTS.length; i++) {
                    assertArrayEquals(reference.generate(prompt(i, c.vocabSize()), NEW_TOKENS[i]).tokens(), made[i],
                            folder + ", request " + i);
                }
            }
        }
    }

    @Test
    void cacheBytesCountThePaddingAndUsedBytesTheRowsOwn() {
        DecoderConfig c = DecoderPreset.TINY_DECODER.config();
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(builtin(DecoderPreset.TINY_DECODER), List.of());
             RowBatch rows = decoder.rows()) {
            rows.prefill(List.of(prompt(0, c.vocabSize()), prompt(1, c.vocabSize())));
            rows.join();
            long perPosition = 2L * c.layers() * c.heads() * c.headDim() * Float.BYTES;
            assertEquals(2 * 9 * perPosition, rows.cacheBytes());
            assertEquals((5 + 9) * perPosition, rows.usedCacheBytes());
            rows.leave(new int[] {1});
            assertEquals(5 * perPosition, rows.cacheBytes(), "the padding goes with the longest row");
        }
    }

    /**
     * A continuous batcher's schedule: requests 0 and 1 prefilled together, 2 joins after one step, 3 and 4 after
     * three; each row leaves once it has its tokens.
     */
    private static long[][] drive(RowBatch rows, int vocab) {
        long[][] made = new long[PROMPTS.length][];
        int[] count = new int[PROMPTS.length];
        for (int i = 0; i < made.length; i++) {
            made[i] = new long[NEW_TOKENS[i]];
        }
        List<Integer> running = new ArrayList<>();
        int[][] joins = {{0, 1}, {}, {2}, {}, {3, 4}};
        for (int iteration = 0; iteration < 40 && (iteration < joins.length || !running.isEmpty()); iteration++) {
            if (iteration < joins.length && joins[iteration].length > 0) {
                List<long[]> prompts = Arrays.stream(joins[iteration]).mapToObj(i -> prompt(i, vocab)).toList();
                rows.prefill(prompts);
                long[] first = greedy(rows, joins[iteration].length);
                for (int k = 0; k < first.length; k++) {
                    int i = joins[iteration][k];
                    made[i][count[i]++] = first[k];
                }
                rows.join();
                for (int i : joins[iteration]) {
                    running.add(i);
                }
                leaveDone(rows, running, count);
            }
            if (running.isEmpty()) {
                continue;
            }
            long[] tokens = running.stream().mapToLong(i -> made[i][count[i] - 1]).toArray();
            rows.step(tokens);
            long[] next = greedy(rows, running.size());
            for (int r = 0; r < running.size(); r++) {
                int i = running.get(r);
                made[i][count[i]++] = next[r];
            }
            leaveDone(rows, running, count);
        }
        return made;
    }

    private static void leaveDone(RowBatch rows, List<Integer> running, int[] count) {
        int[] done = java.util.stream.IntStream.range(0, running.size()).filter(r -> count[running.get(r)]
                == NEW_TOKENS[running.get(r)]).toArray();
        rows.leave(done);
        for (int k = done.length - 1; k >= 0; k--) {
            running.remove(done[k]);
        }
    }

    private static long[] greedy(RowBatch rows, int batch) {
        long[] tokens = new long[batch];
        DecoderSession.greedy(rows.logits(), batch, rows.vocab(), tokens);
        return tokens;
    }

    @Test
    void anEncoderDecoderSaysWhyItsRowsCannotJoinAndLeave() throws Exception {
        ModelSource source = new ModelSource.BuiltinSeq2Seq();
        Path folder = new ModelResolver(cache, SEED).resolve(source).path();
        try (DecoderSession decoder = new OnnxRuntimeEngine().openDecoder(new SessionSpec(source, folder, SEED,
                Device.parse("cpu"), 1, 1, false), List.of())) {
            assertEquals(null, decoder.rows());
            assertTrue(decoder.rowsRefusal().contains("encoder-decoder"), decoder.rowsRefusal());
        }
    }
}
