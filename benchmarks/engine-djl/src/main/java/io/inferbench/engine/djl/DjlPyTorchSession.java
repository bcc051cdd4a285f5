package io.inferbench.engine.djl;

import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Block;
import ai.djl.pytorch.jni.JniUtils;
import ai.djl.training.ParameterStore;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.Device;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.OutputSpec;
import io.inferbench.engine.SessionFacts;
import io.inferbench.engine.SessionSpec;
import io.inferbench.engine.TokenBatch;
import io.inferbench.inputs.Dim;
import io.inferbench.inputs.ElementType;
import io.inferbench.inputs.InputFill;
import io.inferbench.inputs.InputPlan;
import io.inferbench.inputs.InputPlanner;
import io.inferbench.inputs.InputRole;
import io.inferbench.inputs.InputSpecFile;
import io.inferbench.inputs.ModelInput;
import io.inferbench.inputs.PlannedInput;
import io.inferbench.model.EncoderWeights;
import io.inferbench.model.ModelSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One DJL PyTorch model on one device, with one prepared input batch.
 *
 * <p><b>Why timing {@link #forward()} is synchronized.</b> PyTorch on CUDA is asynchronous: an op returns as soon
 * as its kernel is queued. DJL has no explicit synchronize, so each pass ends by copying the first output to the
 * host ({@code toByteBuffer()}), which blocks until the device has finished everything queued before it. The CPU
 * path is timed the same way, so both devices measure compute plus the device-to-host copy.
 *
 * <p><b>Memory.</b> Inputs and each pass's arrays live in sub-managers of a runner (see {@link DjlRunner}), so the
 * count of open arrays stays flat over a run ({@link #openArrays()}). Gradient recording is off.
 *
 * <p><b>Threads.</b> The session's own runner does the sweep's passes; more runners ({@link #newRunner}) call forward
 * on the same block at once, each with its own managers and parameter store: DJL's predictor-per-thread rule, applied
 * to the block directly.
 */
final class DjlPyTorchSession implements InferenceSession {
    private final SessionSpec spec;
    private final NDManager root;
    private final Block block;
    private final Model model;
    private final InputPlan plan;
    private final int intraOpThreads;
    private final int interOpThreads;
    private final DjlRunner ownRunner;
    private final List<DjlRunner> runners = new CopyOnWriteArrayList<>();
    private boolean closed;

    private DjlPyTorchSession(SessionSpec spec, NDManager root, Block block, Model model, InputPlan plan) {
        this.spec = spec;
        this.root = root;
        this.block = block;
        this.model = model;
        this.plan = plan;
        this.intraOpThreads = JniUtils.getNumThreads();
        this.interOpThreads = JniUtils.getNumInteropThreads();
        this.ownRunner = new DjlRunner();
    }

    static DjlPyTorchSession open(Engine engine, SessionSpec spec) {
        ai.djl.Device device = spec.device().isCuda() ? ai.djl.Device.gpu(spec.device().index()) : ai.djl.Device.cpu();
        setThreads(spec);
        JniUtils.setGradMode(false);
        ModelSource source = spec.source();
        if (source instanceof ModelSource.Builtin builtin) {
            NDManager root = engine.newBaseManager(device);
            try {
                Block block = new DjlEncoderBlock(EncoderWeights.generate(builtin.preset().config(), spec.seed()), root);
                return new DjlPyTorchSession(spec, root, block, null, planInputs(spec, List.of("input_ids")));
            } catch (RuntimeException e) {
                root.close();
                throw e;
            }
        }
        if (!(source instanceof ModelSource.TorchScriptFile)) {
            throw new BenchmarkException("DJL's PyTorch backend cannot load the ONNX file " + spec.modelFile()
                    + ": run it with -Dbench.backend=onnxruntime, or give a TorchScript .pt file");
        }
        return openTorchScript(spec, device);
    }

    /** Intra-op threads can change at any time; inter-op threads only before PyTorch's first parallel work. */
    static void setThreads(SessionSpec spec) {
        JniUtils.setNumThreads(spec.intraOpThreads());
        if (JniUtils.getNumInteropThreads() != spec.interOpThreads()) {
            try {
                JniUtils.setNumInteropThreads(spec.interOpThreads());
            } catch (RuntimeException e) {
                // Too late in this JVM; the session reports the count actually in effect.
            }
        }
    }

    private static DjlPyTorchSession openTorchScript(SessionSpec spec, ai.djl.Device device) {
        Path file = spec.modelFile();
        String fileName = file.getFileName().toString();
        String prefix = fileName.contains(".") ? fileName.substring(0, fileName.lastIndexOf('.')) : fileName;
        Model model = Model.newInstance(prefix, device, DjlPyTorchEngine.ENGINE);
        try {
            model.load(file.getParent(), prefix);
        } catch (IOException | MalformedModelException | RuntimeException e) {
            model.close();
            throw new BenchmarkException("DJL's PyTorch engine could not load " + file + " as TorchScript: " + e.getMessage()
                    + ". Save the model with torch.jit.trace or torch.jit.script and torch.jit.save", e);
        }
        try {
            InputPlan plan = torchScriptInputs(spec);
            return new DjlPyTorchSession(spec, model.getNDManager(), model.getBlock(), model, plan);
        } catch (RuntimeException e) {
            model.close();
            throw e;
        }
    }

    /**
     * A TorchScript module's inputs. Its archive gives the forward's argument names ({@link TorchScriptSignature}) but
     * no types or shapes: without an input spec, they must be token inputs ({@code forward(input_ids[, attention_mask]
     * [, token_type_ids][, position_ids])}, int64 {@code [batch, seq]}); with one, the spec lists them in argument order.
     */
    static InputPlan torchScriptInputs(SessionSpec spec) {
        Path file = spec.modelFile();
        List<String> names = TorchScriptSignature.forwardArguments(file);
        if (spec.inputs().specFile() != null) {
            InputSpecFile inputSpec = InputSpecFile.read(spec.inputs().specFile());
            List<String> given = inputSpec.inputs().stream().map(InputSpecFile.Entry::name).toList();
            if (!names.isEmpty() && !names.equals(given)) {
                throw new BenchmarkException("The TorchScript module " + file + " has forward(" + String.join(", ", names)
                        + "), but the input spec " + spec.inputs().specFile() + " lists " + given + ". List the inputs "
                        + "in the forward's argument order, one entry per argument");
            }
            List<ModelInput> declared = inputSpec.inputs().stream()
                    .map(e -> new ModelInput(e.name(), e.type(), e.shape())).toList();
            return InputPlanner.plan(spec.source().name(), declared, spec.inputs(), inputSpec);
        }
        boolean tokens = !names.isEmpty() && names.stream().allMatch(n -> InputRole.of(n, ElementType.INT64).isToken())
                && names.contains("input_ids") && names.stream().distinct().count() == names.size();
        if (!tokens) {
            throw new BenchmarkException("The TorchScript module " + file + (names.isEmpty()
                    ? "'s forward arguments could not be read from the archive (expected <name>/data.pkl and <name>/code/)"
                    : " has forward(" + String.join(", ", names) + ")") + ", and a TorchScript archive declares no "
                    + "shapes or types. Give them with -Dbench.inputs=FILE.json, one entry per argument in order, e.g. "
                    + "{\"inputs\": [{\"name\": \"pixel_values\", \"type\": \"float32\", \"shape\": [\"batch\", 3, 64, 64]}]} "
                    + "(docs/models.md); without a spec the harness feeds forward(input_ids[, attention_mask]"
                    + "[, token_type_ids]), each int64 [batch, seq]");
        }
        return planInputs(spec, names);
    }

    /** Token inputs, int64 with two unnamed dynamic axes (the planner calls them batch and sequence), in this order. */
    private static InputPlan planInputs(SessionSpec spec, List<String> tokenNames) {
        List<ModelInput> declared = tokenNames.stream().map(n -> new ModelInput(n, ElementType.INT64,
                List.of(Dim.named(""), Dim.named("")))).toList();
        InputSpecFile inputSpec = spec.inputs().specFile() == null ? null : InputSpecFile.read(spec.inputs().specFile());
        return InputPlanner.plan(spec.source().name(), declared, spec.inputs(), inputSpec);
    }

    @Override
    public InputPlan inputs() {
        return plan;
    }

    /**
     * A built-in's output is its logits {@code [batch, labels]}, named as in its ONNX graph; a TorchScript module declares
     * no names or shapes, so its first output is {@code output 0}, undeclared.
     */
    @Override
    public List<OutputSpec> outputs() {
        if (spec.source() instanceof ModelSource.Builtin builtin) {
            return List.of(new OutputSpec(io.inferbench.model.OnnxEncoderExporter.LOGITS, "float", List.of("batch",
                    Integer.toString(builtin.preset().config().numLabels())), true));
        }
        return List.of(new OutputSpec("output 0", "float", List.of(), false));
    }

    @Override
    public SessionFacts facts(String engineVersion) {
        return new SessionFacts("PyTorch via DJL on " + root.getDevice(),
                intraOpThreads, interOpThreads,
                engineVersion,
                DjlPyTorchEngine.flavor(),
                root.getDevice().toString(),
                "first output copied to the host with toByteBuffer() inside the timed region (the device sync point); "
                + "first and last byte read; each pass's arrays freed with its sub-manager");
    }

    @Override
    public String sharing() {
        return "one model (its weights, on the device) shared by every runner, each calling forward on it with its own "
                + "NDManager for inputs and pass arrays and its own ParameterStore";
    }

    @Override
    public void prepare(TokenBatch batch) {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
        ownRunner.prepare(batch);
    }

    @Override
    public long forward() {
        return ownRunner.forward();
    }

    @Override
    public Runner newRunner() {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
        DjlRunner runner = new DjlRunner();
        runners.add(runner);
        return runner;
    }

    /** One pass of the session's own runner, returning the first output as floats (for tests that compare values). */
    float[] forwardValues() {
        return ownRunner.runPass(NDArray::toFloatArray);
    }

    /** Arrays currently open under this session's manager, for checking that passes do not leak. */
    int openArrays() {
        return root.getManagedArrays().size();
    }

    /**
     * One thread's inputs and passes on the shared block. Inputs live in their own sub-manager, created by
     * {@link #prepare} outside the timed region (on a GPU, that is where the host-to-device copy happens). Each pass runs
     * in a fresh sub-manager: the inputs are temporarily attached to it, so every intermediate and output of the pass
     * lands there and is freed when the pass ends, and the inputs go back to their own manager.
     */
    private final class DjlRunner implements Runner {
        private final ParameterStore parameters = new ParameterStore(root, false);
        private final InputFill fill = new InputFill(plan, spec.seed());
        private NDManager inputManager;
        private NDList inputs;
        private ByteBuffer lastOutput;
        private boolean runnerClosed;

        @Override
        public void prepare(TokenBatch tokens) {
            if (runnerClosed) {
                throw new IllegalStateException("runner is closed");
            }
            plan.requireFits(tokens.batch(), tokens.seqLen());
            releaseInputs();
            inputManager = root.newSubManager();
            List<NDArray> arrays = new ArrayList<>();
            for (PlannedInput input : plan.inputs()) {
                long[] shape = plan.shape(input, tokens.batch(), tokens.seqLen());
                ByteBuffer values = ByteBuffer.allocateDirect(Math.toIntExact(InputPlan.elements(shape) * input.type().bytes()))
                        .order(ByteOrder.nativeOrder());
                fill.write(input, values, tokens.batch(), tokens.seqLen(), tokens.tokenIds(), tokens.attentionMask());
                values.rewind();
                arrays.add(inputManager.create(values, new Shape(shape), dataType(input.type())));
            }
            inputs = new NDList(arrays);
        }

        /**
         * Reads the first output with {@code toByteBuffer()}, which copies it into a Java byte array: the device sync
         * point, and what {@link #firstOutput} reads after the pass's arrays are freed.
         */
        @Override
        public long forward() {
            ByteBuffer bytes = runPass(NDArray::toByteBuffer);
            lastOutput = bytes;
            int limit = bytes.limit();
            return limit == 0 ? 0 : ((long) bytes.get(0) << 8) ^ bytes.get(limit - 1) ^ limit;
        }

        @Override
        public float[] firstOutput() {
            if (lastOutput == null) {
                return new float[0];
            }
            FloatBuffer values = lastOutput.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer();
            float[] copy = new float[values.remaining()];
            values.get(copy);
            return copy;
        }

        <T> T runPass(java.util.function.Function<NDArray, T> readToHost) {
            if (inputs == null) {
                throw new IllegalStateException("prepare() must be called before forward()");
            }
            try (NDManager pass = root.newSubManager()) {
                inputs.tempAttach(pass);
                NDList outputs = block.forward(parameters, inputs, false);
                return readToHost.apply(outputs.head());
            }
        }

        private void releaseInputs() {
            if (inputManager != null) {
                inputManager.close();
                inputManager = null;
                inputs = null;
            }
        }

        @Override
        public void close() {
            if (!runnerClosed) {
                runnerClosed = true;
                releaseInputs();
                lastOutput = null;
            }
        }
    }

    private static DataType dataType(ElementType type) {
        return switch (type) {
            case FLOAT32 -> DataType.FLOAT32;
            case FLOAT16 -> DataType.FLOAT16;
            case INT64 -> DataType.INT64;
            case INT32 -> DataType.INT32;
            case BOOL -> DataType.BOOLEAN;
        };
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        runners.forEach(Runner::close);
        ownRunner.close();
        if (model != null) {
            model.close();
        } else {
            root.close();
        }
    }
}
