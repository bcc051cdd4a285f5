package io.inferbench.backend;

import java.nio.file.Path;

/**
 * How to open a session.
 *
 * @param intraOpThreads   threads inside one operator (ONNX Runtime's intra-op pool); must be positive, so that
 *                         the number recorded is the number used, never an engine default
 * @param allowCpuFallback on CUDA, let the engine place unsupported nodes on the CPU; off by default, so a
 *                         graph that cannot run fully on the GPU fails instead of being timed half on the CPU
 */
public record SessionSpec(Path modelPath, Device device, int intraOpThreads, boolean allowCpuFallback) {
    public SessionSpec {
        if (intraOpThreads <= 0) {
            throw new IllegalArgumentException("intraOpThreads must be positive, got " + intraOpThreads);
        }
    }
}
