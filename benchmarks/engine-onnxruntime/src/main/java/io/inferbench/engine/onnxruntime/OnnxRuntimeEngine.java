package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtProvider;
import ai.onnxruntime.OrtSession.SessionOptions;
import ai.onnxruntime.OrtSession;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.EnginePeaks;
import io.inferbench.engine.FailureKind;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;

/**
 * ONNX Runtime Java ({@code com.microsoft.onnxruntime:onnxruntime}, or {@code onnxruntime_gpu} under
 * {@code -Pgpu}).
 *
 * <p>CUDA selection, and why it can never silently become a CPU run:
 * <ol>
 *   <li>{@link OrtEnvironment#getAvailableProviders()} lists what the jar was <em>built</em> with. Without CUDA
 *       there, the CPU-only artifact is on the classpath: stop and say {@code -Pgpu}.</li>
 *   <li>{@link SessionOptions#addCUDA(int)} loads the CUDA provider library, which fails naming the missing
 *       {@code .so} (CUDA 12 runtime, cuBLAS, cuDNN 9, ...) when the GPU build lacks its libraries.</li>
 *   <li>ONNX Runtime places nodes as it does: its CUDA provider deliberately leaves shape computations
 *       ({@code Shape}, and the {@code Gather}, {@code Unsqueeze}, {@code Concat} on shape tensors) on the CPU, so
 *       {@code session.disable_cpu_ep_fallback=1} would refuse nearly every transformer exported with dynamic axes.
 *       Instead, preflight profiles a pass and refuses the session when a compute node (MatMul, LayerNorm, Softmax, ...)
 *       runs on the CPU or the CPU's share of the pass passes 1%, naming the nodes, unless the user allows it with
 *       {@code -Dbench.allowCpuFallback=true} (recorded in the provider string); see {@code io.inferbench.roofline.Placement}.</li>
 * </ol>
 */
public final class OnnxRuntimeEngine implements InferenceEngine {
    static final String NAME = "onnxruntime";
    /** Library versions the CUDA provider of the 1.23.x GPU build links against, for error messages. */
    static final String CUDA_REQUIREMENTS = "CUDA 12.x (libcudart.so.12, libcublas.so.12, libcublasLt.so.12, "
            + "libcurand.so.10, libcufft.so.11) and cuDNN 9 (libcudnn.so.9) on LD_LIBRARY_PATH, and an NVIDIA driver";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String engineVersion() {
        return environment().getVersion();
    }

    /** Whether this process's environment was made with one global thread pool, which every session then runs on. */
    private static volatile boolean globalPools;

    /**
     * Makes the process's ONNX Runtime environment with global thread pools ({@code ThreadingOptions}), and every session
     * opened after it uses them ({@code disablePerSessionThreads}). ONNX Runtime only takes thread pools when the
     * environment is made, so this must come first in the process.
     */
    @Override
    public void shareThreadPool(int intraOpThreads, int interOpThreads) {
        if (intraOpThreads == 1 && interOpThreads == 1) {
            return;
        }
        synchronized (OnnxRuntimeEngine.class) {
            if (globalPools) {
                return;
            }
            try (OrtEnvironment.ThreadingOptions threads = new OrtEnvironment.ThreadingOptions()) {
                threads.setGlobalIntraOpNumThreads(intraOpThreads);
                threads.setGlobalInterOpNumThreads(interOpThreads);
                OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR, "inferbench", threads);
                globalPools = true;
            } catch (OrtException | IllegalStateException e) {
                throw new BenchmarkException("ONNX Runtime could not give this process's sessions one shared thread pool of "
                        + intraOpThreads + " thread(s) (" + e.getMessage() + "): its environment must be made with the pool, "
                        + "before any session. This is a fork JVM's job (an A/B run's passes mode); with -Dbench.threads=1 "
                        + "there is no pool to share", e);
            } catch (UnsatisfiedLinkError e) {
                environment(); // says which platforms have natives
                throw e;
            }
        }
    }

    @Override
    public String buildInfo() {
        // e.g. "ONNX Runtime 1.23.2 (onnxruntime, CPU-only build; providers compiled in: [CPU])"
        return "ONNX Runtime " + engineVersion() + " (" + (cudaBuild() ? "onnxruntime_gpu" : "onnxruntime, CPU-only")
                + " build; providers compiled in: " + OrtEnvironment.getAvailableProviders() + ")";
    }

    /** True when the onnxruntime jar on the classpath was built with the CUDA provider (says nothing about a GPU). */
    public static boolean cudaBuild() {
        return OrtEnvironment.getAvailableProviders().contains(OrtProvider.CUDA);
    }

    /**
     * Why ONNX Runtime cannot run on CUDA device {@code index} here, with the fix, or null when its CUDA provider loads
     * (which needs the GPU build, CUDA's and cuDNN's libraries and a driver; it does not need a model).
     */
    public static String cudaProviderProblem(int index) {
        if (!cudaBuild()) {
            return "the ONNX Runtime on the classpath is the CPU-only build: add -Pgpu (com.microsoft.onnxruntime:onnxruntime_gpu)";
        }
        environment(); // the provider logs through the environment's logger, which must exist first
        try (SessionOptions options = new SessionOptions()) {
            options.addCUDA(index);
            return null;
        } catch (OrtException | RuntimeException e) {
            return "its CUDA provider did not load on GPU " + index + ": " + e.getMessage() + ". It needs " + CUDA_REQUIREMENTS;
        }
    }

    static OrtEnvironment environment() {
        try {
            return OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR, "inferbench");
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            throw new BenchmarkException("ONNX Runtime's native library could not be loaded on this platform ("
                    + System.getProperty("os.name") + "/" + System.getProperty("os.arch") + "). Use a platform the "
                    + "onnxruntime artifact ships natives for (linux-x64, linux-aarch64, osx-aarch64, win-x64)", e);
        }
    }

    /**
     * An ONNX Runtime error ({@code OrtException}, which the sessions wrap in refusals that name the pass, and which can
     * reach a cell unwrapped from a tensor's creation) is the engine's or the model's; one about allocating memory is
     * {@link FailureKind#OUT_OF_MEMORY}.
     */
    @Override
    public FailureKind classify(Throwable failure) {
        FailureKind common = InferenceEngine.classifyCommon(failure);
        if (common != null || !(failure instanceof OrtException)) {
            return common;
        }
        String message = String.valueOf(failure.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return message.contains("allocate") || message.contains("out of memory") ? FailureKind.OUT_OF_MEMORY
                : FailureKind.ENGINE_OR_MODEL;
    }

    @Override
    public DecoderSession openProfiledDecoder(SessionSpec spec, java.util.List<io.inferbench.inputs.KvPair> pairs,
                                              java.nio.file.Path traceDir) {
        refuseTorchScriptDecoder(spec);
        return OnnxRuntimeDecoder.open(spec, pairs, traceDir);
    }

    @Override
    public DecoderSession openDecoder(SessionSpec spec, java.util.List<io.inferbench.inputs.KvPair> pairs) {
        refuseTorchScriptDecoder(spec);
        return OnnxRuntimeDecoder.open(spec, pairs);
    }

    private static void refuseTorchScriptDecoder(SessionSpec spec) {
        if (spec.source() instanceof io.inferbench.model.ModelSource.TorchScriptFile) {
            throw new BenchmarkException("ONNX Runtime cannot load the TorchScript file " + spec.modelFile()
                    + ": generation with a user decoder needs its ONNX export (with its key/value cache)");
        }
    }

    @Override
    public InferenceSession open(SessionSpec spec) {
        if (spec.source() instanceof io.inferbench.model.ModelSource.TorchScriptFile) {
            throw new BenchmarkException("ONNX Runtime cannot load the TorchScript file " + spec.modelFile()
                    + ": run it with -Dbench.backend=djl, or export the model to ONNX");
        }
        OrtEnvironment env = environment();
        SessionOptions options = new SessionOptions();
        String provider;
        OrtSession session;
        try {
            provider = configure(options, spec);
            session = createSession(env, options, spec);
        } catch (RuntimeException e) {
            options.close();
            throw e;
        }
        // From here the session object owns both native handles and closes them itself, also when its
        // constructor rejects the model's inputs (ONNX Runtime's close() throws if called twice).
        return new OnnxRuntimeSession(env, options, session, provider, spec);
    }

    static String configure(SessionOptions options, SessionSpec spec) {
        try {
            if (globalPools) {
                // The process's one pool, made with these counts (shareThreadPool); a session's own counts are not set.
                options.disablePerSessionThreads();
            } else {
                options.setIntraOpNumThreads(spec.intraOpThreads());
                options.setInterOpNumThreads(spec.interOpThreads());
            }
            options.setExecutionMode(SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(SessionOptions.OptLevel.ALL_OPT);
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime rejected the session options (intra-op threads "
                    + spec.intraOpThreads() + "): check -Dbench.threads", e);
        }
        if (!spec.device().isCuda()) {
            return "CPUExecutionProvider";
        }
        if (!cudaBuild()) {
            throw new BenchmarkException("CUDA was requested (-Dbench.device=" + spec.device() + ") but the ONNX Runtime "
                    + "on the classpath is the CPU-only build (com.microsoft.onnxruntime:onnxruntime). Rebuild with the "
                    + "GPU build: mvn verify -Pgpu -Dbench.device=" + spec.device() + " (it needs " + CUDA_REQUIREMENTS
                    + "), or run on the CPU with -Dbench.device=cpu");
        }
        try {
            options.addCUDA(spec.device().index());
        } catch (OrtException e) {
            throw new BenchmarkException("CUDA was requested (-Dbench.device=" + spec.device() + ") but ONNX Runtime's "
                    + "CUDA execution provider could not be loaded: " + e.getMessage() + ". The GPU build needs "
                    + CUDA_REQUIREMENTS + ". Nothing was measured; install the missing library, or run with -Dbench.device=cpu", e);
        }
        return spec.allowCpuFallback()
                ? "CUDAExecutionProvider+CPUExecutionProvider (CPU placement allowed)"
                : "CUDAExecutionProvider (CPU placement checked: shape nodes only, under 1% of the pass)";
    }

    @Override
    public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads) {
        return calibrate(device, intraOpThreads, interOpThreads, OnnxRuntimeCalibration.SECONDS_PER_MEASURE);
    }

    @Override
    public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads, double secondsPerMeasure) {
        if (device.isCuda() && !cudaBuild()) {
            throw new BenchmarkException("CUDA calibration needs the GPU build: mvn verify -Pgpu");
        }
        return OnnxRuntimeCalibration.run(device, intraOpThreads, interOpThreads, secondsPerMeasure);
    }

    /**
     * A separate session with ONNX Runtime's profiler on ({@code SessionOptions.enableProfiling}), configured as the
     * measured ones (same provider, threads, optimization level): {@code warmup} passes, one more, then the trace is
     * closed and its path returned. Profiling slows kernels a little, which is why nothing here is a measurement: the
     * trace gives op types, providers, shapes and each kernel's share of a pass.
     *
     * <p><b>File names.</b> ONNX Runtime names a trace {@code <prefix>_<date and time to the second>.json} and writes it
     * when profiling ends, so two sessions profiled within one second under one prefix write the same file, the second
     * over the first (a default run's profile step profiles about six shapes a second: 24 cells left 4 files, each named
     * by several cells). The trace is therefore moved, as soon as it is written, to a name of its own in {@code traceDir}:
     * {@link #traceName}, with {@code -2}, {@code -3}... when that shape was profiled there before.
     */
    /** ONNX Runtime's Chrome-trace profile ({@link OrtProfile}). */
    @Override
    public io.inferbench.engine.OpTrace.Recorded readProfile(java.nio.file.Path file) {
        return OrtProfile.read(file);
    }

    @Override
    public java.util.Optional<java.nio.file.Path> profilePass(SessionSpec spec, TokenBatch batch, int warmup, int passes,
                                                              java.nio.file.Path traceDir) {
        OrtEnvironment env = environment();
        SessionOptions options = new SessionOptions();
        try {
            configure(options, spec);
            java.nio.file.Files.createDirectories(traceDir);
            String name = traceName(spec, batch);
            options.enableProfiling(traceDir.resolve(name).toString());
            OrtSession session = createSession(env, options, spec);
            try (OnnxRuntimeSession wrapped = new OnnxRuntimeSession(env, options, session, "profiling", spec)) {
                wrapped.prepare(batch);
                for (int i = 0; i < warmup + Math.max(1, passes); i++) {
                    wrapped.forward();
                }
                return java.util.Optional.of(moveToOwnName(java.nio.file.Path.of(session.endProfiling()), traceDir, name));
            }
        } catch (OrtException | java.io.IOException e) {
            options.close();
            throw new BenchmarkException("Could not profile a pass of " + spec.modelFile() + " on " + spec.device() + ": " + e.getMessage(), e);
        }
    }

    /** A profile's name without extension: {@code ort-<model file's name>-seq<S>-batch<B>}. */
    static String traceName(SessionSpec spec, TokenBatch batch) {
        String model = spec.modelFile().getFileName().toString().replaceFirst("\\.onnx$", "");
        return "ort-" + model + "-seq" + batch.seqLen() + "-batch" + batch.batch();
    }

    /** Moves a trace ONNX Runtime just wrote to {@code <name>.json} in {@code dir}, or the first free {@code <name>-N.json}. */
    static java.nio.file.Path moveToOwnName(java.nio.file.Path written, java.nio.file.Path dir, String name) throws java.io.IOException {
        java.nio.file.Path target = dir.resolve(name + ".json");
        for (int n = 2; java.nio.file.Files.exists(target); n++) {
            target = dir.resolve(name + "-" + n + ".json");
        }
        return java.nio.file.Files.move(written, target);
    }

    static OrtSession createSession(OrtEnvironment env, SessionOptions options, SessionSpec spec) {
        return createSession(env, options, spec, spec.modelFile());
    }

    /** A session of {@code file}, one graph of the model {@code spec} names (an export folder's). */
    static OrtSession createSession(OrtEnvironment env, SessionOptions options, SessionSpec spec, java.nio.file.Path file) {
        try {
            return env.createSession(file.toString(), options);
        } catch (OrtException e) {
            String hint = spec.device().isCuda()
                    ? " If the message is about CUDA, check the GPU index, the driver, and " + CUDA_REQUIREMENTS
                    + "."
                    : "";
            throw new BenchmarkException("ONNX Runtime could not load the model " + file + " on "
                    + spec.device() + ": " + e.getMessage() + ". Check that the file is a complete, valid ONNX model "
                    + "(re-export it, or check the download).".concat(hint), e);
        }
    }
}
