package io.inferbench.engine.onnxruntime;

/** Lets tests in other packages run ONNX Runtime's bandwidth kernel on its own, without widening the production API. */
public final class OnnxRuntimeCalibrationAccess {
    private OnnxRuntimeCalibrationAccess() {
    }

    /** The in-place add over {@code floats} floats, briefly, on one thread: how its bytes were counted. */
    public static String inPlaceAddMethod(int floats) throws ai.onnxruntime.OrtException {
        return OnnxRuntimeCalibration.inPlaceAdd(floats, 1, 1, 0.05).method();
    }
}
