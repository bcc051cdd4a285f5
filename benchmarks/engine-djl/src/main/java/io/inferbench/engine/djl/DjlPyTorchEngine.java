package io.inferbench.engine.djl;

import ai.djl.engine.Engine;
import ai.djl.util.Platform;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.DecoderSession;
import io.inferbench.engine.Device;
import io.inferbench.engine.EnginePeaks;
import io.inferbench.engine.FailureKind;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.PassTimer;
import io.inferbench.engine.SessionSpec;
import io.inferbench.probe.StreamArrays;

import java.nio.file.Path;

/**
 * DJL's PyTorch engine ({@code ai.djl.pytorch:pytorch-engine}, libtorch natives from
 * {@code pytorch-native-cpu:linux-x86_64}).
 *
 * <p><b>Offline, always.</b> Before the engine starts, the harness sets {@code ai.djl.offline=true} (DJL never
 * downloads natives or models), {@code OPT_OUT_TRACKING=true} (no call home on engine start), and points
 * {@code ENGINE_CACHE_DIR}/{@code DJL_CACHE_DIR} at the cache folder this backend is made with ({@code -Dbench.nativeCache}),
 * where DJL extracts the natives from the Maven artifact on first use (about 430 MB). DJL reads each of these
 * from the environment first, then from system properties. Thread counts ({@code ai.djl.pytorch.num_threads},
 * {@code ai.djl.pytorch.num_interop_threads}) are also fixed at engine start: one JVM, one setting.
 *
 * <p><b>CUDA.</b> The bundled natives are CPU-only. {@code -Dbench.device=cuda} stops before anything is measured
 * unless the loaded libtorch reports a GPU, and the message names the ways to get one.
 */
public final class DjlPyTorchEngine implements InferenceEngine {
    static final String NAME = "djl";
    static final String ENGINE = "PyTorch";

    private final Path cacheDir;

    /** @param cacheDir where DJL extracts the natives from the Maven artifact (about 430 MB, once) */
    public DjlPyTorchEngine(Path cacheDir) {
        this.cacheDir = cacheDir.toAbsolutePath().normalize();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String engineVersion() {
        return engine(cacheDir).getVersion();
    }

    /**
     * Nothing to do: PyTorch's intra-op and inter-op pools belong to the process, fixed at engine start
     * ({@code ai.djl.pytorch.num_threads}), so every session of the JVM already runs on the same ones.
     */
    @Override
    public void shareThreadPool(int intraOpThreads, int interOpThreads) {
    }

    @Override
    public String buildInfo() {
        Engine engine = engine(cacheDir);
        return "DJL " + Engine.getDjlVersion() + " PyTorch engine, libtorch " + engine.getVersion() + " (" + flavor()
                + ", " + engine.getGpuCount() + " GPU(s) visible)";
    }

    /**
     * Why DJL cannot run on CUDA here, with how to enable it, or null when its PyTorch natives see a GPU. Starts the
     * engine (loads the natives) to ask.
     */
    static String cudaUnavailable(Path cacheDir) {
        try {
            Engine engine = engine(cacheDir);
            if (engine.getGpuCount() > 0) {
                return null;
            }
            return "its PyTorch natives (libtorch " + engine.getVersion() + ", flavor " + flavor() + ") see no GPU: the "
                    + "natives bundled here are CPU-only. " + CUDA_FIX;
        } catch (BenchmarkException e) {
            return "its PyTorch engine does not start: " + e.getMessage();
        }
    }

    /** How to give DJL a CUDA libtorch (docs/models.md), for messages. */
    static final String CUDA_FIX = "To measure DJL on CUDA, point it at a CUDA libtorch of the same version: "
            + "PYTORCH_LIBRARY_PATH=<dir with libtorch.so> PYTORCH_VERSION=2.7.1 PYTORCH_FLAVOR=cu126 (for example the lib "
            + "folder of a pip torch==2.7.1+cu126 install), and name it: -Dbench.backend=djl";

    /** cpu, or the CUDA flavor (cu124, ...) of the natives in use. */
    static String flavor() {
        try {
            return Platform.detectPlatform("pytorch").getFlavor();
        } catch (RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /**
     * Settings DJL reads when the engine starts. Called before the first engine use in a JVM; later calls with other
     * thread counts cannot change a running engine, which the session reports truthfully.
     */
    static void configure(Path cacheDir, int intraOpThreads, int interOpThreads) {
        configureOffline(cacheDir);
        System.setProperty("ai.djl.pytorch.num_threads", Integer.toString(intraOpThreads));
        System.setProperty("ai.djl.pytorch.num_interop_threads", Integer.toString(interOpThreads));
    }

    /** DJL offline, no tracking, natives extracted into {@code cacheDir}: for every DJL library this harness loads. */
    static void configureOffline(Path cacheDir) {
        System.setProperty("ai.djl.offline", "true");
        System.setProperty("OPT_OUT_TRACKING", "true");
        System.setProperty("ENGINE_CACHE_DIR", cacheDir.toAbsolutePath().toString());
        System.setProperty("DJL_CACHE_DIR", cacheDir.toAbsolutePath().toString());
    }

    static Engine engine(Path cacheDir) {
        if (System.getProperty("ai.djl.pytorch.num_threads") == null) {
            configure(cacheDir, Runtime.getRuntime().availableProcessors(), 1);
        }
        try {
            Engine engine = Engine.getEngine(ENGINE);
            if (engine == null) {
                throw new IllegalStateException("no engine named " + ENGINE + " on the classpath");
            }
            return engine;
        } catch (RuntimeException | UnsatisfiedLinkError e) {
            throw new BenchmarkException("DJL's PyTorch engine could not start: " + e.getMessage() + ". It needs "
                    + "ai.djl.pytorch:pytorch-jni and pytorch-native-cpu (classifier linux-x86_64) at matching versions on "
                    + "the classpath, on linux-x86_64; DJL runs offline here, so a missing native is never downloaded. "
                    + "Check -Dbench.nativeCache is writable (the natives are extracted there)", e);
        }
    }

    /**
     * The same three measures as ONNX Runtime's, with PyTorch through DJL on the device: {@code matMul} of two
     * {@code n x n} arrays, {@code a * s + b} over {@code m} floats, and one add of one-element arrays, each ended by a read
     * of a scalar to the host (the sync point), median of about a second of passes.
     */
    @Override
    public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads) {
        return calibrate(device, intraOpThreads, interOpThreads, 1.0);
    }

    @Override
    public EnginePeaks calibrate(Device device, int intraOpThreads, int interOpThreads, double secondsPerMeasure) {
        configure(cacheDir, intraOpThreads, interOpThreads);
        long measureNs = (long) (secondsPerMeasure * 1e9);
        Engine engine = engine(cacheDir);
        if (device.isCuda() && engine.getGpuCount() <= device.index()) {
            throw new BenchmarkException("CUDA calibration: the PyTorch natives in use see " + engine.getGpuCount() + " GPU(s)");
        }
        ai.djl.Device djlDevice = device.isCuda() ? ai.djl.Device.gpu(device.index()) : ai.djl.Device.cpu();
        ai.djl.pytorch.jni.JniUtils.setNumThreads(intraOpThreads);
        int n = device.isCuda() ? 4096 : 1024;
        int m = device.isCuda() ? 32 << 20 : (int) Math.min(1L << 28, StreamArrays.arrayBytes() / Float.BYTES);
        try (ai.djl.ndarray.NDManager manager = engine.newBaseManager(djlDevice)) {
            ai.djl.ndarray.NDArray a = manager.randomUniform(-0.5f, 0.5f, new ai.djl.ndarray.types.Shape(n, n));
            ai.djl.ndarray.NDArray b = manager.randomUniform(-0.5f, 0.5f, new ai.djl.ndarray.types.Shape(n, n));
            double matmul = medianSeconds(manager, new ai.djl.ndarray.NDList(a, b), () -> a.matMul(b).sum().getFloat(), measureNs);
            ai.djl.ndarray.NDArray x = manager.zeros(new ai.djl.ndarray.types.Shape(m));
            ai.djl.ndarray.NDArray y = manager.ones(new ai.djl.ndarray.types.Shape(m));
            // In place, so a pass allocates nothing: a fresh 64 MB result per op would time page faults, not the memory.
            double stream = medianSeconds(manager, new ai.djl.ndarray.NDList(x, y), () -> {
                x.addi(y);
                x.subi(y);
                x.get(0).getFloat();
            }, measureNs);
            ai.djl.ndarray.NDArray one = manager.create(new float[] {1f});
            double floor = medianSeconds(manager, new ai.djl.ndarray.NDList(one), () -> one.add(one).getFloat(), measureNs);
            Double half = null;
            if (device.isCuda()) {
                // The float16 roof (tensor cores); the sum is read back as float32, so the sync point is the same.
                ai.djl.ndarray.NDArray a16 = a.toType(ai.djl.ndarray.types.DataType.FLOAT16, false);
                ai.djl.ndarray.NDArray b16 = b.toType(ai.djl.ndarray.types.DataType.FLOAT16, false);
                half = 2.0 * n * n * n / medianSeconds(manager, new ai.djl.ndarray.NDList(a16, b16),
                        () -> a16.matMul(b16).sum().toType(ai.djl.ndarray.types.DataType.FLOAT32, false).getFloat(), measureNs);
            }
            // No integer roof: DJL builds only the float32 built-ins, so no int8 product runs through it.
            return new EnginePeaks(2.0 * n * n * n / matmul, 6.0 * m * Float.BYTES / stream, floor * 1e3,
                    io.inferbench.Text.f("PyTorch %s through DJL on %s: matMul %dx%d (then sum)%s; in-place add and subtract "
                            + "over %d floats (%d MB moved per pass: each op reads x and y and writes x, 3 arrays, no write-allocate "
                            + "read); one add of one-element arrays; each ended by a scalar read to the host, "
                            + "median of about %s s of passes", engine.getVersion(), djlDevice, n, n,
                            half == null ? "" : ", the same in float16", m, 6L * m * Float.BYTES >> 20,
                            io.inferbench.Text.plain(secondsPerMeasure)), null, half);
        }
    }

    /** Each pass in a sub-manager its inputs are attached to for the pass, so what it creates is freed after it. */
    private static double medianSeconds(ai.djl.ndarray.NDManager manager, ai.djl.ndarray.NDList inputs, Runnable pass,
                                        long measureNs) {
        return PassTimer.medianNanos(() -> {
            try (ai.djl.ndarray.NDManager scope = manager.newSubManager()) {
                inputs.tempAttach(scope);
                long start = System.nanoTime();
                pass.run();
                return System.nanoTime() - start;
            }
        }, 3, 5, measureNs) / 1e9;
    }

    /**
     * DJL's own exceptions ({@code EngineException} from PyTorch's natives, {@code ModelException},
     * {@code TranslateException}) are the engine's or the model's; one that says memory ran out (PyTorch's "out of
     * memory", CUDA's allocator) is {@link FailureKind#OUT_OF_MEMORY}.
     */
    @Override
    public FailureKind classify(Throwable failure) {
        FailureKind common = InferenceEngine.classifyCommon(failure);
        if (common != null || !(failure instanceof ai.djl.engine.EngineException || failure instanceof ai.djl.ModelException
                || failure instanceof ai.djl.translate.TranslateException)) {
            return common;
        }
        String message = String.valueOf(failure.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return message.contains("out of memory") || message.contains("failed to allocate") ? FailureKind.OUT_OF_MEMORY
                : FailureKind.ENGINE_OR_MODEL;
    }

    @Override
    public DecoderSession openDecoder(SessionSpec spec, java.util.List<io.inferbench.inputs.KvPair> pairs) {
        if (!(spec.source() instanceof io.inferbench.model.ModelSource.BuiltinDecoder decoder)) {
            throw new BenchmarkException("DJL's PyTorch backend generates with the built-in decoders only (tiny-decoder, "
                    + "base-decoder); " + spec.source().name() + " is a user model: run its generation with "
                    + "-Dbench.backend=onnxruntime and its ONNX export");
        }
        open(spec.withInputs(io.inferbench.inputs.InputOptions.NONE), false);
        return DjlDecoder.open(engine(cacheDir), spec, decoder.preset());
    }

    @Override
    public InferenceSession open(SessionSpec spec) {
        return open(spec, true);
    }

    /** Starts the engine for {@code spec} and checks its device; with {@code session}, opens the model too. */
    private InferenceSession open(SessionSpec spec, boolean session) {
        configure(cacheDir, spec.intraOpThreads(), spec.interOpThreads());
        Engine engine = engine(cacheDir);
        if (spec.device().isCuda() && engine.getGpuCount() <= spec.device().index()) {
            throw new BenchmarkException("CUDA was requested (-Dbench.device=" + spec.device() + ") but the PyTorch natives "
                    + "in use (libtorch " + engine.getVersion() + ", flavor " + flavor() + ") see "
                    + engine.getGpuCount() + " GPU(s). Nothing was measured. Ways to get CUDA: a local libtorch built with "
                    + "CUDA, selected with PYTORCH_LIBRARY_PATH, PYTORCH_VERSION and PYTORCH_FLAVOR (e.g. cu128); or DJL's "
                    + "CUDA natives from Maven Central (ai.djl.pytorch:pytorch-native-cu124 exists only for libtorch 2.4.0 "
                    + "and 2.5.1, i.e. DJL 0.33 with pytorch-jni 2.5.1-0.33.0, which this build does not pin). "
                    + "Or run on the CPU with -Dbench.device=cpu");
        }
        return session ? DjlPyTorchSession.open(engine, spec) : null;
    }
}
