package io.inferbench.backend;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession.SessionOptions;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import ai.onnxruntime.ValueInfo;
import io.inferbench.BenchmarkException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One {@link OrtSession} with one prepared input batch.
 *
 * <p><b>Why timing {@link #forward()} is synchronized.</b> The Java API has no IOBinding: {@code run} copies
 * inputs to the device, computes, copies every output back to host memory, and synchronizes the execution
 * provider's stream before it returns (the run option {@code disable_synchronize_execution_providers} defaults
 * to 0 and is never set here). So the wall time of {@code run} is compute plus both copies, with nothing left
 * running on the GPU when the clock stops.
 *
 * <p><b>Copies and allocation.</b> Inputs are direct buffers wrapped once per {@link #prepare} (a heap buffer
 * would be copied on every call). When every output is float with a shape the harness can resolve from the
 * batch and sequence axes, outputs are <em>pinned</em>: preallocated direct buffers that {@code run} writes
 * into, so the timed path allocates only what the engine itself allocates (its small {@code Result} object).
 * Otherwise each pass's engine-allocated outputs are copied once into a Java buffer to be read; that copy is
 * inside the timed region, and {@link #outputHandling()} says so in the results.
 *
 * <p><b>Consumption.</b> The first and last element of every output are read and folded into the checksum
 * that {@link #forward()} returns: this proves the values reached the host without timing a full scan of a
 * large output, which would be application work rather than inference.
 */
final class OnnxRuntimeSession implements InferenceSession {
    private final OrtEnvironment env;
    private final SessionOptions options;
    private final OrtSession session;
    private final String provider;
    private final SessionSpec spec;
    private final InputLayout layout;
    private final String[] idDimensionNames;
    private final Map<String, TensorInfo> outputInfo;

    private final Map<String, OnnxTensor> inputs = new LinkedHashMap<>();
    private final Map<String, OnnxTensor> pinnedOutputs = new LinkedHashMap<>();
    private final List<ByteBuffer> pinnedOutputBytes = new ArrayList<>();
    private boolean pinned;
    private boolean closed;

    OnnxRuntimeSession(OrtEnvironment env, SessionOptions options, OrtSession session, String provider, SessionSpec spec) {
        this.env = env;
        this.options = options;
        this.session = session;
        this.provider = provider;
        this.spec = spec;
        try {
            Map<String, NodeInfo> inputInfo = session.getInputInfo();
            TensorInfo ids = validateInputs(inputInfo);
            this.idDimensionNames = ids.getDimensionNames();
            this.layout = new InputLayout(List.copyOf(inputInfo.keySet()), ids.getShape()[0], ids.getShape()[1]);
            this.outputInfo = tensorInfos(session.getOutputInfo());
        } catch (OrtException | RuntimeException e) {
            closeQuietly(e);
            throw e instanceof BenchmarkException be ? be
                    : new BenchmarkException("Could not read the model's inputs and outputs: " + e.getMessage(), e);
        }
    }

    private static TensorInfo validateInputs(Map<String, NodeInfo> inputInfo) {
        String listing = describe(inputInfo);
        if (!inputInfo.containsKey(InputLayout.INPUT_IDS)) {
            throw new BenchmarkException("The model has no 'input_ids' input, so the harness cannot feed it token ids. "
                    + "Its inputs are: " + listing + ". Supported layouts: input_ids int64 [batch, seq], optionally with "
                    + "attention_mask and token_type_ids of the same type and shape (the usual BERT-style export)");
        }
        for (Map.Entry<String, NodeInfo> input : inputInfo.entrySet()) {
            if (!InputLayout.SUPPORTED.contains(input.getKey())) {
                throw new BenchmarkException("The model has an input '" + input.getKey() + "' that the harness does not "
                        + "know how to fill. Its inputs are: " + listing + ". Supported inputs: " + InputLayout.SUPPORTED
                        + " (int64 [batch, seq]); export the model with only these inputs");
            }
            if (!(input.getValue().getInfo() instanceof TensorInfo t) || t.type != OnnxJavaType.INT64
                    || t.getShape().length != 2) {
                throw new BenchmarkException("Model input '" + input.getKey() + "' must be an int64 tensor of shape "
                        + "[batch, seq], but it is " + input.getValue().getInfo() + ". Its inputs are: " + listing
                        + ". Re-export the model with int64 [batch, seq] inputs");
            }
        }
        return (TensorInfo) inputInfo.get(InputLayout.INPUT_IDS).getInfo();
    }

    static String describe(Map<String, NodeInfo> infos) {
        return infos.entrySet().stream()
                .map(e -> e.getKey() + " " + describe(e.getValue().getInfo()))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    private static String describe(ValueInfo info) {
        if (info instanceof TensorInfo t) {
            String[] names = t.getDimensionNames();
            long[] shape = t.getShape();
            List<String> dims = new ArrayList<>();
            for (int i = 0; i < shape.length; i++) {
                dims.add(shape[i] >= 0 ? Long.toString(shape[i]) : (names[i] == null || names[i].isEmpty() ? "?" : names[i]));
            }
            return t.type.toString().toLowerCase(java.util.Locale.ROOT) + " " + dims;
        }
        return info.toString();
    }

    private static Map<String, TensorInfo> tensorInfos(Map<String, NodeInfo> infos) {
        Map<String, TensorInfo> result = new LinkedHashMap<>();
        infos.forEach((name, node) -> result.put(name, node.getInfo() instanceof TensorInfo t ? t : null));
        return result;
    }

    @Override
    public InputLayout inputLayout() {
        return layout;
    }

    @Override
    public String executionProvider() {
        return provider;
    }

    @Override
    public int intraOpThreads() {
        return spec.intraOpThreads();
    }

    @Override
    public int interOpThreads() {
        return spec.interOpThreads();
    }

    @Override
    public String engineFlavor() {
        return OnnxRuntimeBackend.cudaBuild() ? "gpu build (onnxruntime_gpu)" : "cpu build (onnxruntime)";
    }

    @Override
    public String deviceUsed() {
        return spec.device().toString();
    }

    @Override
    public String outputHandling() {
        return pinned
                ? "pinned: run() writes into preallocated host buffers; first and last element read"
                : "engine-allocated: each output copied once into a Java buffer inside the timed region; first and last element read";
    }

    @Override
    public void prepare(int batch, int seqLen, long[] tokenIds) {
        ensureOpen();
        if (batch <= 0 || seqLen <= 0) {
            throw new BenchmarkException("batch and seqLen must be positive, got batch " + batch + ", seqLen " + seqLen);
        }
        String problem = layout.incompatibility(batch, seqLen);
        if (problem != null) {
            throw new BenchmarkException("The model cannot take batch " + batch + " x seqLen " + seqLen + ": " + problem
                    + ". Restrict the sweep with -Dbench.batch / -Dbench.seq, or export the model with dynamic axes");
        }
        if (tokenIds.length != batch * seqLen) {
            throw new IllegalArgumentException(tokenIds.length + " token ids for batch " + batch + " x seqLen " + seqLen);
        }
        releaseBatch();
        long[] shape = {batch, seqLen};
        try {
            for (String name : layout.inputNames()) {
                LongBuffer values = ByteBuffer.allocateDirect(tokenIds.length * Long.BYTES)
                        .order(ByteOrder.nativeOrder()).asLongBuffer();
                switch (name) {
                    case InputLayout.INPUT_IDS -> values.put(tokenIds);
                    case InputLayout.ATTENTION_MASK -> { for (int i = 0; i < tokenIds.length; i++) values.put(1L); }
                    default -> { for (int i = 0; i < tokenIds.length; i++) values.put(0L); }
                }
                values.rewind();
                inputs.put(name, OnnxTensor.createTensor(env, values, shape));
            }
            pinned = pinOutputs(batch, seqLen);
        } catch (OrtException e) {
            releaseBatch();
            throw new BenchmarkException("Could not create input tensors for batch " + batch + " x seqLen " + seqLen, e);
        }
    }

    /** Preallocates float outputs whose dims are fixed or named like input_ids' batch/seq dims; false if any is not. */
    private boolean pinOutputs(int batch, int seqLen) throws OrtException {
        List<long[]> shapes = new ArrayList<>();
        for (TensorInfo info : outputInfo.values()) {
            if (info == null || info.type != OnnxJavaType.FLOAT) {
                return false;
            }
            long[] shape = info.getShape().clone();
            String[] names = info.getDimensionNames();
            for (int i = 0; i < shape.length; i++) {
                if (shape[i] >= 0) {
                    continue;
                }
                String dim = names[i];
                if (dim != null && !dim.isEmpty() && dim.equals(idDimensionNames[0])) {
                    shape[i] = batch;
                } else if (dim != null && !dim.isEmpty() && dim.equals(idDimensionNames[1])) {
                    shape[i] = seqLen;
                } else {
                    return false;
                }
            }
            shapes.add(shape);
        }
        int i = 0;
        for (String name : outputInfo.keySet()) {
            long[] shape = shapes.get(i++);
            long elements = 1;
            for (long d : shape) {
                elements = Math.multiplyExact(elements, d);
            }
            ByteBuffer bytes = ByteBuffer.allocateDirect(Math.toIntExact(elements * Float.BYTES)).order(ByteOrder.nativeOrder());
            pinnedOutputBytes.add(bytes);
            pinnedOutputs.put(name, OnnxTensor.createTensor(env, bytes.asFloatBuffer(), shape));
        }
        return true;
    }

    @Override
    public long forward() {
        if (inputs.isEmpty()) {
            throw new IllegalStateException("prepare() must be called before forward()");
        }
        try {
            if (pinned) {
                try (OrtSession.Result ignored = session.run(inputs, pinnedOutputs)) {
                    long checksum = 0;
                    for (int i = 0; i < pinnedOutputBytes.size(); i++) {
                        checksum = checksum * 31 + firstAndLast(pinnedOutputBytes.get(i));
                    }
                    return checksum;
                }
            }
            try (OrtSession.Result result = session.run(inputs)) {
                long checksum = 0;
                for (Map.Entry<String, OnnxValue> output : result) {
                    if (output.getValue() instanceof OnnxTensor tensor) {
                        checksum = checksum * 31 + firstAndLast(tensor.getByteBuffer());
                    } else {
                        checksum = checksum * 31 + output.getValue().getValue().hashCode();
                    }
                }
                return checksum;
            }
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime failed during a forward pass: " + e.getMessage(), e);
        }
    }

    private static long firstAndLast(ByteBuffer bytes) {
        int limit = bytes.limit();
        if (limit == 0) {
            return 0;
        }
        return ((long) bytes.get(0) << 8) ^ bytes.get(limit - 1) ^ limit;
    }

    /** A view of a pinned float output, for tests that check values; empty when outputs are not pinned. */
    FloatBuffer pinnedOutput(int index) {
        return pinnedOutputBytes.get(index).asFloatBuffer();
    }

    private void releaseBatch() {
        inputs.values().forEach(OnnxTensor::close);
        inputs.clear();
        pinnedOutputs.values().forEach(OnnxTensor::close);
        pinnedOutputs.clear();
        pinnedOutputBytes.clear();
        pinned = false;
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
        releaseBatch();
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
