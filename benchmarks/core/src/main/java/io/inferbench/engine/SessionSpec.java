package io.inferbench.engine;

import io.inferbench.inputs.InputOptions;
import io.inferbench.model.ModelSource;

import java.nio.file.Path;

/**
 * How to open a session.
 *
 * @param source           what the user asked for: a built-in preset (an engine loads its generated ONNX file, or
 *                         builds it from the same seeded weights), an ONNX file, or a TorchScript file
 * @param modelFile        the file to load: the cached ONNX file for built-ins, else the user's file
 * @param seed             the built-in model's weight seed
 * @param intraOpThreads   threads inside one operator; must be positive, so that the number recorded is the
 *                         number used, never an engine default
 * @param interOpThreads   threads running independent operators in parallel
 * @param allowCpuFallback on CUDA, let the engine place unsupported nodes on the CPU; off by default, so a
 *                         graph that cannot run fully on the GPU fails instead of being timed half on the CPU
 * @param inputs           the user's axis bindings and input spec ({@link io.inferbench.inputs.InputPlanner})
 * @param userCode         a user's own code and its settings, for a target ({@code -Dbench.target}); none otherwise
 */
public record SessionSpec(ModelSource source, Path modelFile, long seed, Device device, int intraOpThreads,
                          int interOpThreads, boolean allowCpuFallback, InputOptions inputs, UserCode userCode) {
    public SessionSpec {
        inputs = inputs == null ? InputOptions.NONE : inputs;
        userCode = userCode == null ? UserCode.NONE : userCode;
        if (intraOpThreads <= 0 || interOpThreads <= 0) {
            throw new IllegalArgumentException("thread counts must be positive, got intra-op " + intraOpThreads
                    + ", inter-op " + interOpThreads);
        }
    }

    /** Without a user's code. */
    public SessionSpec(ModelSource source, Path modelFile, long seed, Device device, int intraOpThreads,
                       int interOpThreads, boolean allowCpuFallback, InputOptions inputs) {
        this(source, modelFile, seed, device, intraOpThreads, interOpThreads, allowCpuFallback, inputs, UserCode.NONE);
    }

    /** With the model's own inputs: no axis bindings, no input spec. */
    public SessionSpec(ModelSource source, Path modelFile, long seed, Device device, int intraOpThreads,
                       int interOpThreads, boolean allowCpuFallback) {
        this(source, modelFile, seed, device, intraOpThreads, interOpThreads, allowCpuFallback, InputOptions.NONE);
    }

    /** An ONNX file, one inter-op thread. */
    public SessionSpec(Path onnxFile, Device device, int intraOpThreads, boolean allowCpuFallback) {
        this(new ModelSource.OnnxFile(onnxFile), onnxFile, 0, device, intraOpThreads, 1, allowCpuFallback, InputOptions.NONE);
    }

    /** A copy that places every node on the device asked for: what the preflight profiles to check CPU placement. */
    public SessionSpec withoutCpuFallback() {
        return new SessionSpec(source, modelFile, seed, device, intraOpThreads, interOpThreads, false, inputs, userCode);
    }

    /** A copy with other axis bindings or input spec. */
    public SessionSpec withInputs(InputOptions newInputs) {
        return new SessionSpec(source, modelFile, seed, device, intraOpThreads, interOpThreads, allowCpuFallback, newInputs,
                userCode);
    }
}
