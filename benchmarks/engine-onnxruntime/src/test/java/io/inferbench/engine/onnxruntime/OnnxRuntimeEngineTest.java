package io.inferbench.engine.onnxruntime;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.Device;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TestModels;
import io.inferbench.engine.TokenBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

class OnnxRuntimeEngineTest {
    private final InferenceEngine backend = new OnnxRuntimeEngine();

    @TempDir
    Path dir;

    private InferenceSession open(Path model) {
        return backend.open(new SessionSpec(model, Device.parse("cpu"), 1, false));
    }

    @Test
    void bertStyleInputsAreFilledWithIdsOnesAndZeros() throws IOException {
        try (InferenceSession session = open(TestModels.bertStyle(dir))) {
            assertEquals(List.of("input_ids", "attention_mask", "token_type_ids"), session.inputs().inputNames());
            long[] ids = new Random(12345).longs(2 * 5, 0, 30000).toArray();
            session.prepare(2, 5, ids);
            session.forward();
            assertTrue(session.facts("test").outputHandling().startsWith("pinned"), session.facts("test").outputHandling());
            FloatBuffer echoedIds = ((OnnxRuntimeSession) session).pinnedOutput(0);
            FloatBuffer mask = ((OnnxRuntimeSession) session).pinnedOutput(1);
            FloatBuffer types = ((OnnxRuntimeSession) session).pinnedOutput(2);
            for (int i = 0; i < ids.length; i++) {
                assertEquals(ids[i], echoedIds.get(i), 0.0, "input_ids[" + i + "]");
                assertEquals(1f, mask.get(i), "attention_mask[" + i + "]");
                assertEquals(0f, types.get(i), "token_type_ids[" + i + "]");
            }
        }
    }

    /** A padded batch: the mask the caller gives reaches the model as it is, zeros on the padding. */
    @Test
    void aBatchsOwnAttentionMaskReachesTheModel() throws IOException {
        try (InferenceSession session = open(TestModels.bertStyle(dir))) {
            long[] ids = {101, 7, 8, 102, 0, 101, 9, 102, 0, 0};
            long[] mask = {1, 1, 1, 1, 0, 1, 1, 1, 0, 0};
            session.prepare(new TokenBatch(2, 5, ids, mask));
            session.forward();
            FloatBuffer echoedMask = ((OnnxRuntimeSession) session).pinnedOutput(1);
            for (int i = 0; i < mask.length; i++) {
                assertEquals(mask[i], echoedMask.get(i), 0.0, "attention_mask[" + i + "]");
            }
        }
    }

    /**
     * A runner keeps each shape's tensors: back at a shape it prepared before, it writes the new ids and mask into the
     * same direct buffers (the same tensor, no allocation per batch), and the model sees exactly the new inputs.
     */
    @Test
    void aRunnerReusesEachShapesTensorsAndTheModelSeesTheNewInputs() throws IOException {
        try (InferenceSession session = open(TestModels.bertStyle(dir));
             OnnxRuntimeRunner runner = (OnnxRuntimeRunner) session.newRunner()) {
            long[] first = new Random(1).longs(2 * 5, 0, 30000).toArray();
            runner.prepare(TokenBatch.full(2, 5, first));
            runner.forward();
            ai.onnxruntime.OnnxTensor tensorAt2x5 = runner.inputTensor("input_ids");
            runner.prepare(TokenBatch.full(3, 7, new Random(2).longs(3 * 7, 0, 30000).toArray()));
            runner.forward();
            long[] again = {101, 7, 8, 102, 0, 101, 9, 102, 0, 0};
            long[] mask = {1, 1, 1, 1, 0, 1, 1, 1, 0, 0};
            runner.prepare(new TokenBatch(2, 5, again, mask));
            assertTrue(tensorAt2x5 == runner.inputTensor("input_ids"), "the 2x5 tensor is reused, not made again");
            runner.forward();
            float[] echoed = runner.firstOutput();
            FloatBuffer echoedMask = runner.pinnedOutput(1);
            for (int i = 0; i < again.length; i++) {
                assertEquals(again[i], echoed[i], 0.0, "input_ids[" + i + "]: the new ids, not the first batch's");
                assertEquals(mask[i], echoedMask.get(i), 0.0, "attention_mask[" + i + "]");
            }
        }
    }

    /** Runners of one session, on threads of their own at once, each get exactly their own inputs' outputs. */
    @Test
    void runnersOnSeveralThreadsShareTheSessionAndKeepTheirOwnInputs() throws Exception {
        try (InferenceSession session = open(TestModels.bertStyle(dir))) {
            int threads = 4;
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
            try {
                List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    long seed = 1000 + t;
                    InferenceSession.Runner runner = session.newRunner();
                    results.add(pool.submit(() -> {
                        long[] ids = new Random(seed).longs(3 * 7, 0, 30000).toArray();
                        runner.prepare(TokenBatch.full(3, 7, ids));
                        for (int pass = 0; pass < 200; pass++) {
                            runner.forward();
                            float[] echoed = runner.firstOutput();
                            for (int i = 0; i < ids.length; i++) {
                                if (echoed[i] != ids[i]) {
                                    return false;
                                }
                            }
                        }
                        runner.close();
                        return true;
                    }));
                }
                for (java.util.concurrent.Future<Boolean> result : results) {
                    assertTrue(result.get(), "a runner saw another runner's inputs");
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void missingModelFileIsRefusedWithItsPath() {
        Path missing = dir.resolve("nope.onnx");
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> open(missing));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void corruptModelIsRefusedAsInvalidOnnx() throws IOException {
        Path corrupt = dir.resolve("corrupt.onnx");
        byte[] junk = new byte[4096];
        new Random(12345).nextBytes(junk);
        Files.write(corrupt, junk);
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> open(corrupt));
        assertTrue(e.getMessage().contains("valid ONNX model"), e.getMessage());
        assertTrue(e.getCause() != null, "the ONNX Runtime error is chained");
    }

    @Test
    void aModelWithoutTokenInputsRunsBatchOnlyOnGeneratedValues() throws IOException {
        try (OnnxRuntimeSession session = (OnnxRuntimeSession) open(TestModels.pixelValues(dir))) {
            assertTrue(session.inputs().batchOnly(), "no token inputs and no -Dbench.seqAxis: batch only");
            assertEquals(List.of("pixel_values float32 [batch,3,224,224] normal(0,1)"), session.inputs().describe());
            session.prepare(2, 0, new long[0]);
            session.forward();
            FloatBuffer out = session.pinnedOutput(0);
            assertEquals(2 * 3 * 224 * 224, out.remaining());
            double sum = 0;
            double squares = 0;
            for (int i = 0; i < out.remaining(); i++) {
                sum += out.get(i);
                squares += out.get(i) * out.get(i);
            }
            double mean = sum / out.remaining();
            assertEquals(0, mean, 0.01, "normal(0,1) values reach the model");
            assertEquals(1, squares / out.remaining() - mean * mean, 0.02);
            BenchmarkException e = assertThrows(BenchmarkException.class, () -> session.prepare(2, 64, new long[128]));
            assertTrue(e.getMessage().contains("runs batch only"), e.getMessage());
        }
    }

    /** float16, int32 and bool inputs reach the model with the values their spec chose, in their own encoding. */
    @Test
    void float16Int32AndBoolInputsAreFilledInTheirTypes() throws IOException {
        Path spec = dir.resolve("types.json");
        Files.writeString(spec, "{\"inputs\": ["
                + "{\"name\": \"half\", \"type\": \"float16\", \"shape\": [\"batch\", 4], \"values\": {\"const\": 1.5}},"
                + "{\"name\": \"count\", \"type\": \"int32\", \"shape\": [\"batch\", 4], \"values\": {\"range\": [7, 7]}},"
                + "{\"name\": \"flag\", \"type\": \"bool\", \"shape\": [\"batch\", 4], \"values\": \"ones\"}]}");
        Path model = TestModels.otherTypes(dir);
        io.inferbench.model.ModelSource source = new io.inferbench.model.ModelSource.OnnxFile(model);
        try (OnnxRuntimeSession session = (OnnxRuntimeSession) backend.open(new SessionSpec(source, model, 1, Device.parse("cpu"),
                1, 1, false, new io.inferbench.inputs.InputOptions(null, java.util.Map.of(), spec)))) {
            session.prepare(2, 0, new long[0]);
            session.forward();
            float[] expected = {1.5f, 7f, 1f};
            for (int output = 0; output < 3; output++) {
                FloatBuffer values = session.pinnedOutput(output);
                assertEquals(8, values.remaining());
                for (int i = 0; i < 8; i++) {
                    assertEquals(expected[output], values.get(i), 0f, "output " + output + " element " + i);
                }
            }
        }
    }

    @Test
    void int32InputIdsTakeTheTokenIdsAsInt32() throws IOException {
        try (InferenceSession session = open(TestModels.int32Ids(dir))) {
            assertEquals(List.of("input_ids int32 [batch,seq] token ids (from the token batch)"), session.inputs().describe());
            session.prepare(1, 3, new long[] {1001, 1002, 1003});
            session.forward();
        }
    }

    @Test
    void fixedAxesRefuseOtherShapes() throws IOException {
        try (InferenceSession session = open(TestModels.fixedShape(dir, 1, 16))) {
            assertEquals(1, session.inputs().fixedBatch());
            assertEquals(16, session.inputs().fixedSeqLen());
            assertDoesNotThrow(() -> session.prepare(1, 16, new long[16]));
            BenchmarkException e = assertThrows(BenchmarkException.class, () -> session.prepare(2, 16, new long[32]));
            assertTrue(e.getMessage().contains("batch axis is fixed at 1"), e.getMessage());
        }
    }

    @Test
    void nonPositiveShapesAreRefused() throws IOException {
        try (InferenceSession session = open(TestModels.bertStyle(dir))) {
            assertThrows(BenchmarkException.class, () -> session.prepare(0, 8, new long[0]));
            assertThrows(BenchmarkException.class, () -> session.prepare(1, -1, new long[0]));
        }
    }

    @Test
    void outputsThatCannotBePreallocatedAreCopiedAndSaySo() throws IOException {
        try (InferenceSession session = open(TestModels.unresolvableOutput(dir))) {
            session.prepare(2, 3, new long[] {1, 2, 3, 4, 5, 6});
            session.forward();
            assertTrue(session.facts("test").outputHandling().startsWith("engine-allocated"), session.facts("test").outputHandling());
        }
    }

    @Test
    void cudaOnTheCpuBuildFailsAndNamesTheGpuProfile() throws IOException {
        assumeFalse(OnnxRuntimeEngine.cudaBuild(), "this check is for the CPU-only onnxruntime artifact");
        Path model = TestModels.bertStyle(dir);
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> backend.open(new SessionSpec(model, Device.parse("cuda:0"), 1, false)));
        assertTrue(e.getMessage().contains("-Pgpu"), e.getMessage());
        assertTrue(e.getMessage().contains("CPU-only build"), e.getMessage());
    }

    @Test
    void closeIsIdempotent() throws IOException {
        InferenceSession session = open(TestModels.bertStyle(dir));
        session.close();
        assertDoesNotThrow(session::close);
    }

    @Test
    void deviceNamesParse() {
        assertEquals("cpu", Device.parse("CPU").toString());
        assertEquals("cuda:0", Device.parse("cuda").toString());
        assertEquals("cuda:3", Device.parse("cuda:3").toString());
        assertThrows(BenchmarkException.class, () -> Device.parse("tpu"));
        assertThrows(BenchmarkException.class, () -> Device.parse("cuda:x"));
        assertThrows(BenchmarkException.class, () -> Device.parse("cuda:-1"));
    }

    /** Issue 54: an arena that cannot allocate a shape's buffer is said with its size and the fix, not ORT's words alone. */
    @Test
    void anAllocationFailureSaysItsSizeAndTheFix() {
        String said = OnnxRuntimeRunner.forwardFailure("Non-zero status code returned while running Gather node. Status "
                + "Message: bfc_arena.cc:359 Failed to allocate memory for requested buffer of size 52428800000");
        assertTrue(said.startsWith("ONNX Runtime could not allocate a buffer of 52.4 GB for this shape"), said);
        assertTrue(said.contains("Lower -Dbench.batch or -Dbench.seq"), said);
        assertTrue(OnnxRuntimeRunner.forwardFailure("Invalid rank").startsWith("ONNX Runtime failed during a forward pass: "));
    }
}
