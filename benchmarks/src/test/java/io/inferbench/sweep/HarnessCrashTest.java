package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.results.CellResult;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A cell's failure is a crash of inferbench only when neither the harness's refusal, the engine nor memory caused it. */
class HarnessCrashTest {
    @Test
    void aBugOfTheHarnessIsACrash() {
        assertTrue(CellTrial.harnessCrash(new NullPointerException("x")));
        assertTrue(CellTrial.harnessCrash(new IllegalStateException("wrapped", new ArrayIndexOutOfBoundsException(3))));
    }

    @Test
    void refusalsEngineErrorsAndMemoryAreNot() {
        assertFalse(CellTrial.harnessCrash(new BenchmarkException("the model refused")));
        assertFalse(CellTrial.harnessCrash(new RuntimeException("wrapper", new BenchmarkException("cause"))));
        assertFalse(CellTrial.harnessCrash(new OutOfMemoryError("Java heap space")));
        RuntimeException fromEngine = new IllegalArgumentException("bad shape");
        fromEngine.setStackTrace(new StackTraceElement[] {new StackTraceElement("ai.onnxruntime.OnnxTensor", "createTensor", null, 1)});
        assertFalse(CellTrial.harnessCrash(fromEngine));
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
