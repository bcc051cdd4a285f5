package io.inferbench.engine.djl;

import com.fasterxml.jackson.databind.JsonNode;
import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
import io.inferbench.engine.Device;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TestModels;
import io.inferbench.engine.TokenBatch;
import io.inferbench.engine.onnxruntime.OnnxRuntimeEngine;
import io.inferbench.engine.onnxruntime.OnnxRuntimeTestAccess;
import io.inferbench.model.EncoderPreset;
import io.inferbench.model.ModelResolver;
import io.inferbench.model.ModelSource;
import io.inferbench.model.ResolvedModel;
import io.inferbench.results.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The DJL PyTorch backend: parity with ONNX Runtime, the TorchScript fixture, memory, and its refusals. */
class DjlPyTorchEngineTest {
    private static final long SEED = 12345L;
    private final InferenceEngine djl = new DjlPyTorchEngine(TestPaths.nativeCache());
    private final InferenceEngine ort = new OnnxRuntimeEngine();

    @TempDir
    Path dir;

    private static Path cache() {
        return TestPaths.modelCache();
    }

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(DjlPyTorchEngineTest.class.getResource("/torchscript/" + name).toURI());
    }

    private static SessionSpec spec(ModelSource source, Path file, String device) {
        return new SessionSpec(source, file, SEED, Device.parse(device), 1, 1, false);
    }

    /** Both engines run the same encoder: same seeded weights, same input, logits within a relative 1e-4. */
    @Test
    void djlAndOnnxRuntimeGiveTheSameLogitsForTheTinyPreset() {
        ModelSource tiny = new ModelSource.Builtin(EncoderPreset.TINY);
        ResolvedModel onnx = new ModelResolver(cache(), SEED).resolve(tiny);
        try (InferenceSession a = ort.open(spec(tiny, onnx.path(), "cpu"));
             DjlPyTorchSession b = (DjlPyTorchSession) djl.open(spec(tiny, onnx.path(), "cpu"))) {
            for (int seq : new int[] {8, 33}) {
                for (int batch : new int[] {1, 3}) {
                    long[] ids = new Random(SEED + seq * 10L + batch).longs((long) batch * seq, 0, 30000).toArray();
                    a.prepare(batch, seq, ids);
                    a.forward();
                    FloatBuffer expected = OnnxRuntimeTestAccess.pinnedOutput(a, 0);
                    b.prepare(batch, seq, ids);
                    float[] actual = b.forwardValues();
                    assertEquals(batch * 2, actual.length);
                    double scale = 0;
                    double maxDiff = 0;
                    for (int i = 0; i < actual.length; i++) {
                        scale = Math.max(scale, Math.abs(expected.get(i)));
                        maxDiff = Math.max(maxDiff, Math.abs(actual[i] - expected.get(i)));
                    }
                    assertTrue(scale > 1e-3, "logits should not be trivially zero");
                    assertTrue(maxDiff <= 1e-4 * scale, "seq " + seq + " batch " + batch + ": max |djl - ort| = "
                            + maxDiff + " against max |logit| " + scale);
                }
            }
        }
    }

    @Test
    void torchScriptFixtureLoadsRunsAndMatchesItsSavedReference() throws Exception {
        Path pt = fixture("tiny_classifier.pt");
        JsonNode reference = Json.mapper().readTree(fixture("tiny_classifier.json").toFile());
        try (DjlPyTorchSession session = (DjlPyTorchSession) djl.open(spec(new ModelSource.TorchScriptFile(pt), pt, "cpu"))) {
            assertEquals(List.of("input_ids", "attention_mask"), session.inputs().inputNames());
            JsonNode ids = reference.get("input_ids");
            int batch = ids.size();
            int seq = ids.get(0).size();
            long[] flat = new long[batch * seq];
            for (int b = 0; b < batch; b++) {
                for (int s = 0; s < seq; s++) {
                    flat[b * seq + s] = ids.get(b).get(s).asLong();
                }
            }
            session.prepare(batch, seq, flat);
            float[] logits = session.forwardValues();
            for (int b = 0; b < batch; b++) {
                for (int k = 0; k < 2; k++) {
                    assertEquals(reference.get("logits").get(b).get(k).asDouble(), logits[b * 2 + k], 1e-5, "logit " + b + "," + k);
                }
            }
        }
    }

    /**
     * Runners on several threads at once call forward on one shared block; each gets the logits of its own input, the
     * same as the session's own runner gives for it, and no arrays are left behind.
     */
    @Test
    void runnersOnSeveralThreadsGiveEachTheirOwnLogits() throws Exception {
        ModelSource tiny = new ModelSource.Builtin(EncoderPreset.TINY);
        try (DjlPyTorchSession session = (DjlPyTorchSession) djl.open(spec(tiny, null, "cpu"))) {
            int threads = 3;
            List<long[]> inputs = new java.util.ArrayList<>();
            List<float[]> expected = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long[] ids = new Random(SEED + t).longs(2 * 12, 0, 30000).toArray();
                inputs.add(ids);
                session.prepare(2, 12, ids);
                expected.add(session.forwardValues());
            }
            int before = session.openArrays();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
            try {
                List<java.util.concurrent.Future<Double>> worst = new java.util.ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int index = t;
                    InferenceSession.Runner runner = session.newRunner();
                    worst.add(pool.submit(() -> {
                        runner.prepare(TokenBatch.full(2, 12, inputs.get(index)));
                        double maxDiff = 0;
                        for (int pass = 0; pass < 50; pass++) {
                            runner.forward();
                            float[] logits = runner.firstOutput();
                            for (int i = 0; i < logits.length; i++) {
                                maxDiff = Math.max(maxDiff, Math.abs(logits[i] - expected.get(index)[i]));
                            }
                        }
                        runner.close();
                        return maxDiff;
                    }));
                }
                for (java.util.concurrent.Future<Double> diff : worst) {
                    assertTrue(diff.get() < 1e-5, "a runner's logits differ by " + diff.get());
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(before, session.openArrays(), "closed runners leave no arrays behind");
        }
    }

    @Test
    void nativeArraysDoNotAccumulateOverManyPasses() {
        ModelSource tiny = new ModelSource.Builtin(EncoderPreset.TINY);
        try (DjlPyTorchSession session = (DjlPyTorchSession) djl.open(spec(tiny, null, "cpu"))) {
            session.prepare(2, 16, new Random(SEED).longs(32, 0, 30000).toArray());
            session.forward();
            int before = session.openArrays();
            for (int i = 0; i < 300; i++) {
                session.forward();
            }
            assertEquals(before, session.openArrays(), "open NDArrays after 300 passes");
        }
    }

    @Test
    void cudaOnCpuNativesFailsAndNamesTheWaysToGetCuda() {
        ModelSource tiny = new ModelSource.Builtin(EncoderPreset.TINY);
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> djl.open(spec(tiny, null, "cuda:0")));
        assertTrue(e.getMessage().contains("PYTORCH_LIBRARY_PATH") && e.getMessage().contains("PYTORCH_FLAVOR")
                && e.getMessage().contains("pytorch-native-cu124") && e.getMessage().contains("Nothing was measured"), e.getMessage());
    }

    @Test
    void missingTorchScriptIsRefused() {
        Path missing = dir.resolve("missing.pt");
        assertTrue(assertThrows(BenchmarkException.class, () -> ModelSource.parse(missing.toString()))
                .getMessage().contains("Model file not found"));
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> djl.open(spec(new ModelSource.TorchScriptFile(missing), missing, "cpu")));
        assertTrue(e.getMessage().contains("could not load " + missing + " as TorchScript"), e.getMessage());
    }

    @Test
    void torchScriptWhoseForwardTakesOtherInputsNeedsAnInputSpec() throws Exception {
        Path pt = fixture("pixel_model.pt");
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> djl.open(spec(new ModelSource.TorchScriptFile(pt), pt, "cpu")));
        assertTrue(e.getMessage().contains("forward(pixel_values)"), e.getMessage());
        assertTrue(e.getMessage().contains("-Dbench.inputs=FILE.json"), e.getMessage());
    }

    @Test
    void eachEngineRefusesTheOthersFileFormat() throws IOException, URISyntaxException {
        Path onnx = TestModels.bertStyle(dir);
        assertTrue(assertThrows(BenchmarkException.class, () -> djl.open(spec(new ModelSource.OnnxFile(onnx), onnx, "cpu")))
                .getMessage().contains("-Dbench.backend=onnxruntime"));
        Path pt = fixture("tiny_classifier.pt");
        assertTrue(assertThrows(BenchmarkException.class, () -> ort.open(spec(new ModelSource.TorchScriptFile(pt), pt, "cpu")))
                .getMessage().contains("-Dbench.backend=djl"));
        assertTrue(Files.isRegularFile(pt));
    }
}
