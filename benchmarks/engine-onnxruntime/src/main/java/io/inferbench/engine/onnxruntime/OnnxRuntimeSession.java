package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession.SessionOptions;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.OutputSpec;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.inputs.Dim;
import io.inferbench.inputs.ElementType;
import io.inferbench.inputs.InputPlan;
import io.inferbench.inputs.InputPlanner;
import io.inferbench.inputs.InputSpecFile;
import io.inferbench.inputs.ModelInput;

import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@link OrtSession}: the model, its metadata, and the session's own {@link OnnxRuntimeRunner}; more runners share
 * the same {@code OrtSession} ({@code run} is thread-safe on one session).
 *
 * <p><b>Why timing {@link #forward()} is synchronized.</b> The Java API has no IOBinding: {@code run} copies
 * inputs to the device, computes, copies every output back to host memory, and synchronizes the execution
 * provider's stream before it returns (the run option {@code disable_synchronize_execution_providers} defaults
 * to 0 and is never set here). So the wall time of {@code run} is compute plus both copies, with nothing left
 * running on the GPU when the clock stops.
 *
 * <p>What a pass copies, allocates and reads is the runner's business: see {@link OnnxRuntimeRunner}.
 */
final class OnnxRuntimeSession implements InferenceSession {
    private final OrtEnvironment env;
    private final SessionOptions options;
    private final OrtSession session;
    private final String provider;
    private final SessionSpec spec;
    private final InputPlan plan;
    private final Map<String, TensorInfo> outputInfo;

    private final OnnxRuntimeRunner ownRunner;
    private final List<OnnxRuntimeRunner> runners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private boolean closed;

    OnnxRuntimeSession(OrtEnvironment env, SessionOptions options, OrtSession session, String provider, SessionSpec spec) {
        this.env = env;
        this.options = options;
        this.session = session;
        this.provider = provider;
        this.spec = spec;
        try {
            this.plan = planInputs(session.getInputInfo(), spec);
            this.outputInfo = tensorInfos(session.getOutputInfo());
            this.ownRunner = new OnnxRuntimeRunner(this);
        } catch (OrtException | RuntimeException e) {
            closeQuietly(e);
            throw e instanceof BenchmarkException be ? be
                    : new BenchmarkException("Could not read the model's inputs and outputs: " + e.getMessage(), e);
        }
    }

    /**
     * The plan of the model's inputs, from ONNX Runtime's input info (name, element type, shape with axis names) and the
     * user's bindings and input spec; {@link InputPlanner} refuses what the harness cannot fill.
     */
    private static InputPlan planInputs(Map<String, NodeInfo> inputInfo, SessionSpec spec) {
        List<ModelInput> declared = declaredInputs(inputInfo);
        InputSpecFile file = spec.inputs().specFile() == null ? null : InputSpecFile.read(spec.inputs().specFile());
        return InputPlanner.plan(spec.source().name(), declared, spec.inputs(), file);
    }

    /** Each input as ONNX Runtime declares it: name, element type, and each axis fixed or by its name. */
    static List<ModelInput> declaredInputs(Map<String, NodeInfo> inputInfo) {
        List<ModelInput> declared = new ArrayList<>();
        for (Map.Entry<String, NodeInfo> input : inputInfo.entrySet()) {
            if (!(input.getValue().getInfo() instanceof TensorInfo t)) {
                declared.add(new ModelInput(input.getKey(), input.getValue().getInfo().toString(), null, List.of()));
                continue;
            }
            declared.add(new ModelInput(input.getKey(), t.type.toString().toLowerCase(java.util.Locale.ROOT),
                    elementType(t.type), dims(t)));
        }
        return declared;
    }

    /** Each axis of a tensor as ONNX Runtime declares it: fixed, or dynamic by its name ("" when unnamed). */
    static List<Dim> dims(TensorInfo t) {
        String[] names = t.getDimensionNames();
        long[] shape = t.getShape();
        List<Dim> dims = new ArrayList<>();
        for (int i = 0; i < shape.length; i++) {
            dims.add(shape[i] >= 0 ? Dim.fixed(shape[i]) : Dim.named(names[i] == null ? "" : names[i]));
        }
        return dims;
    }

    static ElementType elementType(OnnxJavaType type) {
        return switch (type) {
            case FLOAT -> ElementType.FLOAT32;
            case FLOAT16 -> ElementType.FLOAT16;
            case INT64 -> ElementType.INT64;
            case INT32 -> ElementType.INT32;
            case BOOL -> ElementType.BOOL;
            default -> null;
        };
    }

    static OnnxJavaType onnxType(ElementType type) {
        return switch (type) {
            case FLOAT32 -> OnnxJavaType.FLOAT;
            case FLOAT16 -> OnnxJavaType.FLOAT16;
            case INT64 -> OnnxJavaType.INT64;
            case INT32 -> OnnxJavaType.INT32;
            case BOOL -> OnnxJavaType.BOOL;
        };
    }

    private static Map<String, TensorInfo> tensorInfos(Map<String, NodeInfo> infos) {
        Map<String, TensorInfo> result = new LinkedHashMap<>();
        infos.forEach((name, node) -> result.put(name, node.getInfo() instanceof TensorInfo t ? t : null));
        return result;
    }

    @Override
    public InputPlan inputs() {
        return plan;
    }

    @Override
    public List<OutputSpec> outputs() {
        List<OutputSpec> specs = new ArrayList<>();
        outputInfo.forEach((name, info) -> {
            if (info == null) {
                specs.add(new OutputSpec(name, "not a tensor", List.of(), false));
                return;
            }
            String[] names = info.getDimensionNames();
            long[] shape = info.getShape();
            List<String> dims = new ArrayList<>();
            for (int i = 0; i < shape.length; i++) {
                dims.add(shape[i] >= 0 ? Long.toString(shape[i]) : (names[i] == null || names[i].isEmpty() ? "?" : names[i]));
            }
            specs.add(new OutputSpec(name, info.type.toString().toLowerCase(java.util.Locale.ROOT), dims, true));
        });
        return List.copyOf(specs);
    }

    @Override
    public SessionFacts facts(String engineVersion) {
        return new SessionFacts(provider,
                spec.intraOpThreads(), spec.interOpThreads(),
                engineVersion,
                OnnxRuntimeEngine.cudaBuild() ? "gpu build (onnxruntime_gpu)" : "cpu build (onnxruntime)",
                spec.device().toString(),
                ownRunner.outputHandling());
    }

    @Override
    public String sharing() {
        return "one OrtSession shared by every runner (OrtSession.run is thread-safe); each runner has its own input "
                + "tensors and output buffers";
    }

    @Override
    public void prepare(TokenBatch batch) {
        ensureOpen();
        ownRunner.prepare(batch);
    }

    @Override
    public long forward() {
        return ownRunner.forward();
    }

    @Override
    public Runner newRunner() {
        ensureOpen();
        OnnxRuntimeRunner runner = new OnnxRuntimeRunner(this);
        runners.add(runner);
        return runner;
    }

    /** A view of a pinned float output of the session's own runner, for tests that check values. */
    FloatBuffer pinnedOutput(int index) {
        return ownRunner.pinnedOutput(index);
    }

    OrtEnvironment environment() {
        return env;
    }

    OrtSession ortSession() {
        return session;
    }

    long seed() {
        return spec.seed();
    }

    Map<String, TensorInfo> outputInfo() {
        return outputInfo;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
    }

    @Override
    public void close() {
        closeQuietly(null);
    }

    /** Closes in reverse order of creation; the environment is a shared singleton and stays open. */
    private void closeQuietly(Throwable primary) {
        if (closed) {
            return;
        }
        closed = true;
        runners.forEach(OnnxRuntimeRunner::close);
        if (ownRunner != null) {
            ownRunner.close();
        }
        try {
            session.close();
        } catch (OrtException e) {
            if (primary != null) {
                primary.addSuppressed(e);
            } else {
                throw new BenchmarkException("Could not close the ONNX Runtime session", e);
            }
        } finally {
            options.close();
        }
    }
}
