package io.inferbench.engine;

import io.inferbench.BenchmarkException;
import io.inferbench.TestPaths;
import io.inferbench.results.CellResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cell's failure is a crash of inferbench only when neither the harness's refusal, the engine nor memory caused it, as
 * each engine says by the type of what it threw ({@link InferenceEngine#classify}); a frame's class name says nothing.
 */
class FailureClassificationTest {
    private final InferenceEngine ort = Engines.create("onnxruntime", TestPaths.nativeCache());
    private final InferenceEngine djl = Engines.create("djl", TestPaths.nativeCache());

    @Test
    void aBugOfTheHarnessIsACrashOnEveryEngine() {
        for (InferenceEngine engine : new InferenceEngine[] {ort, djl, null}) {
            assertNull(Engines.classify(engine, new NullPointerException("x")));
            assertNull(Engines.classify(engine, new IllegalStateException("wrapped", new ArrayIndexOutOfBoundsException(3))));
        }
    }

    @Test
    void refusalsAndMemoryAreNotCrashesWhereverTheyAreInTheChain() {
        for (InferenceEngine engine : new InferenceEngine[] {ort, djl, null}) {
            assertEquals(FailureKind.REFUSAL, Engines.classify(engine, new BenchmarkException("the model refused")));
            assertEquals(FailureKind.REFUSAL, Engines.classify(engine, new RuntimeException("wrapper",
                    new BenchmarkException("cause"))));
            assertEquals(FailureKind.OUT_OF_MEMORY, Engines.classify(engine, new OutOfMemoryError("Java heap space")));
        }
    }

    @Test
    void eachEngineRecognisesItsOwnExceptionTypesAndNotTheOthers() {
        Throwable ortError = new RuntimeException("in a cell", new ai.onnxruntime.OrtException("Non-zero status code "
                + "returned while running MatMul node"));
        Throwable djlError = new ai.djl.engine.EngineException("The size of tensor a (3) must match the size of tensor b (4)");
        assertEquals(FailureKind.ENGINE_OR_MODEL, Engines.classify(ort, ortError));
        assertEquals(FailureKind.ENGINE_OR_MODEL, Engines.classify(djl, djlError));
        assertNull(Engines.classify(ort, djlError), "ONNX Runtime does not claim DJL's exceptions");
        assertNull(Engines.classify(djl, ortError), "DJL does not claim ONNX Runtime's exceptions");
        assertEquals(FailureKind.OUT_OF_MEMORY, Engines.classify(ort, new ai.onnxruntime.OrtException(
                "Failed to allocate memory for requested buffer of size 1073741824")));
        assertEquals(FailureKind.OUT_OF_MEMORY, Engines.classify(djl, new ai.djl.engine.EngineException(
                "CUDA out of memory. Tried to allocate 2.00 GiB")));
    }

    @Test
    void aFrameFromInsideAnEngineNoLongerMakesAHarnessBugLookLikeTheEngines() {
        RuntimeException bug = new IllegalArgumentException("bad shape");
        bug.setStackTrace(new StackTraceElement[] {new StackTraceElement("ai.onnxruntime.OnnxTensor", "createTensor", null, 1)});
        assertNull(Engines.classify(ort, bug), "a plain IllegalArgumentException is the harness's, wherever it was thrown");
    }

    @Test
    void aCrashedCellIsMarkedSoTheRunExits3() {
        CellResult crashed = CellResult.failed(new io.inferbench.analysis.SeriesKey("onnxruntime", "cpu", "tiny", 8), "sha", 1,
                CellResult.HARNESS_CRASH + " (java.lang.NullPointerException): x (raw fork output kept in f)");
        assertTrue(crashed.harnessCrash());
        assertFalse(CellResult.failed(new io.inferbench.analysis.SeriesKey("onnxruntime", "cpu", "tiny", 8), "sha", 1,
                "ONNX Runtime failed a pass").harnessCrash());
    }
}
