package io.inferbench.backend;

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
import io.inferbench.model.EncoderWeights;
import io.inferbench.model.ModelSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One DJL PyTorch model on one device, with one prepared input batch.
 *
 * <p><b>Why timing {@link #forward()} is synchronized.</b> PyTorch on CUDA is asynchronous: an op returns as soon
 * as its kernel is queued. DJL has no explicit synchronize, so each pass ends by copying the first output to the
 * host ({@code toByteBuffer()}), which blocks until the device has finished everything queued before it. The CPU
 * path is timed the same way, so both devices measure compute plus the device-to-host copy.
 *
 * <p><b>Memory.</b> Inputs live in their own sub-manager, created by {@link #prepare} outside the timed region
 * (on a GPU, that is where the host-to-device copy happens). Each pass runs in a fresh sub-manager: the inputs
 * are temporarily attached to it, so every intermediate and output of the pass lands there and is freed when
 * the pass ends, and the inputs go back to their own manager. The count of open arrays therefore stays flat
 * over a run ({@link #openArrays()}). Gradient recording is off.
 */
final class DjlPyTorchSession implements InferenceSession {
    private final SessionSpec spec;
    private final NDManager root;
    private final Block block;
    private final Model model;
    private final ParameterStore parameterStore;
    private final InputLayout layout;
    private final int intraOpThreads;
    private final int interOpThreads;
    private NDManager inputManager;
    private NDList inputs;
    private boolean closed;

    private DjlPyTorchSession(SessionSpec spec, NDManager root, Block block, Model model, InputLayout layout) {
        this.spec = spec;
        this.root = root;
        this.block = block;
        this.model = model;
        this.layout = layout;
        this.parameterStore = new ParameterStore(root, false);
        this.intraOpThreads = JniUtils.getNumThreads();
        this.interOpThreads = JniUtils.getNumInteropThreads();
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
                return new DjlPyTorchSession(spec, root, block, null, new InputLayout(List.of(InputLayout.INPUT_IDS), -1, -1));
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
    private static void setThreads(SessionSpec spec) {
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
        Model model = Model.newInstance(prefix, device, DjlPyTorchBackend.ENGINE);
        try {
            model.load(file.getParent(), prefix);
        } catch (IOException | MalformedModelException | RuntimeException e) {
            model.close();
            throw new BenchmarkException("DJL's PyTorch engine could not load " + file + " as TorchScript: " + e.getMessage()
                    + ". Save the model with torch.jit.trace or torch.jit.script and torch.jit.save", e);
        }
        try {
            InputLayout layout = torchScriptLayout(file);
            return new DjlPyTorchSession(spec, model.getNDManager(), model.getBlock(), model, layout);
        } catch (RuntimeException e) {
            model.close();
            throw e;
        }
    }

    /**
     * The forward's argument names (read from the archive, see {@link TorchScriptSignature}) must be input_ids first,
     * then any of attention_mask, token_type_ids; they give the order of the inputs passed to it.
     */
    static InputLayout torchScriptLayout(Path file) {
        List<String> names = TorchScriptSignature.forwardArguments(file);
        boolean usable = !names.isEmpty() && names.get(0).equals(InputLayout.INPUT_IDS)
                && InputLayout.SUPPORTED.containsAll(names) && names.stream().distinct().count() == names.size();
        if (!usable) {
            throw new BenchmarkException("The TorchScript module " + file + (names.isEmpty()
                    ? "'s forward arguments could not be read from the archive (expected <name>/data.pkl and <name>/code/)"
                    : " has forward(" + String.join(", ", names) + ")") + ", which the harness cannot feed. Supported: forward(input_ids[, attention_mask][, token_type_ids]), "
                    + "each an int64 tensor [batch, seq] (the usual BERT-style signature)");
        }
        return new InputLayout(List.copyOf(names), -1, -1);
    }

    @Override
    public InputLayout inputLayout() {
        return layout;
    }

    @Override
    public String executionProvider() {
        return "PyTorch via DJL on " + root.getDevice();
    }

    @Override
    public int intraOpThreads() {
        return intraOpThreads;
    }

    @Override
    public int interOpThreads() {
        return interOpThreads;
    }

    @Override
    public String engineFlavor() {
        return DjlPyTorchBackend.flavor();
    }

    @Override
    public String deviceUsed() {
        return root.getDevice().toString();
    }

    @Override
    public String outputHandling() {
        return "first output copied to the host with toByteBuffer() inside the timed region (the device sync point); "
                + "first and last byte read; each pass's arrays freed with its sub-manager";
    }

    @Override
    public void prepare(int batch, int seqLen, long[] tokenIds) {
        if (closed) {
            throw new IllegalStateException("session is closed");
        }
        if (batch <= 0 || seqLen <= 0) {
            throw new BenchmarkException("batch and seqLen must be positive, got batch " + batch + ", seqLen " + seqLen);
        }
        if (tokenIds.length != batch * seqLen) {
            throw new IllegalArgumentException(tokenIds.length + " token ids for batch " + batch + " x seqLen " + seqLen);
        }
        releaseInputs();
        inputManager = root.newSubManager();
        Shape shape = new Shape(batch, seqLen);
        List<NDArray> arrays = new ArrayList<>();
        for (String name : layout.inputNames()) {
            arrays.add(switch (name) {
                case InputLayout.INPUT_IDS -> inputManager.create(tokenIds, shape);
                case InputLayout.ATTENTION_MASK -> inputManager.ones(shape, DataType.INT64);
                default -> inputManager.zeros(shape, DataType.INT64);
            });
        }
        inputs = new NDList(arrays);
    }

    @Override
    public long forward() {
        ByteBuffer bytes = runPass(NDArray::toByteBuffer);
        int limit = bytes.limit();
        return limit == 0 ? 0 : ((long) bytes.get(0) << 8) ^ bytes.get(limit - 1) ^ limit;
    }

    /** One pass, returning the first output as floats (for tests that compare values). */
    float[] forwardValues() {
        return runPass(NDArray::toFloatArray);
    }

    private <T> T runPass(java.util.function.Function<NDArray, T> readToHost) {
        if (inputs == null) {
            throw new IllegalStateException("prepare() must be called before forward()");
        }
        try (NDManager pass = root.newSubManager()) {
            inputs.tempAttach(pass);
            NDList outputs = block.forward(parameterStore, inputs, false);
            return readToHost.apply(outputs.head());
        }
    }

    /** Arrays currently open under this session's manager, for checking that passes do not leak. */
    int openArrays() {
        return root.getManagedArrays().size();
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
        if (closed) {
            return;
        }
        closed = true;
        releaseInputs();
        if (model != null) {
            model.close();
        } else {
            root.close();
        }
    }
}
