package io.inferbench.engine.onnxruntime;

import io.inferbench.engine.InferenceSession;

import java.nio.FloatBuffer;

/** Lets tests in other packages read a session's pinned outputs without widening the production API. */
public final class OnnxRuntimeTestAccess {
    private OnnxRuntimeTestAccess() {
    }

    public static FloatBuffer pinnedOutput(InferenceSession session, int index) {
        return ((OnnxRuntimeSession) session).pinnedOutput(index);
    }
}
