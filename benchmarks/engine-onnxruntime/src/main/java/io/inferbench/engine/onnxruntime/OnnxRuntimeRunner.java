package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import ai.onnxruntime.TensorInfo;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.TokenBatch;
import io.inferbench.inputs.InputFill;
import io.inferbench.inputs.InputPlan;
import io.inferbench.inputs.PlannedInput;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One thread's inputs and outputs on a shared {@link OrtSession}: the session's own runner does the sweep's passes,
 * and more runners serve concurrent requests ({@code OrtSession.run} is thread-safe on one session).
 *
 * <p><b>Copies and allocation.</b> Inputs are direct buffers (a heap buffer would be copied on every call), allocated
 * and wrapped once per shape and reused by later {@link #prepare} calls at that shape. When every output is float with a shape the harness can resolve from the
 * batch and sequence axes, outputs are <em>pinned</em>: preallocated direct buffers that {@code run} writes
 * into, so the timed path allocates only what the engine itself allocates (its small {@code Result} object).
 * Otherwise each pass's engine-allocated outputs are copied once into a Java buffer to be read; that copy is
 * inside the timed region, and {@link #outputHandling()} says so in the results.
 *
 * <p><b>Consumption.</b> The first and last element of every output are read and folded into the checksum
 * that {@link #forward()} returns: this proves the values reached the host without timing a full scan of a
 * large output, which would be application work rather than inference. {@link #firstOutput()} is that application
 * work, for the serving measurements' fetch stage.
 */
final class OnnxRuntimeRunner implements InferenceSession.Runner {
    private final OnnxRuntimeSession owner;
    private final InputFill fill;
    /** The tensors of each shape prepared so far, least recently used first; at most {@value #SHAPES_KEPT}. */
    private final LinkedHashMap<List<Integer>, ShapeTensors> shapes = new LinkedHashMap<>(16, 0.75f, true);
    private Map<String, OnnxTensor> inputs = Map.of();
    private Map<String, OnnxTensor> pinnedOutputs = Map.of();
    private List<ByteBuffer> pinnedOutputBytes = List.of();
    private boolean pinned;
    private ByteBuffer lastFirstOutput;
    private boolean closed;

    OnnxRuntimeRunner(OnnxRuntimeSession owner) {
        this.owner = owner;
        this.fill = new InputFill(owner.inputs(), owner.seed());
    }

    String outputHandling() {
        return pinned
                ? "pinned: run() writes into preallocated host buffers; first and last element read"
                : "engine-allocated: each output copied once into a Java buffer inside the timed region; first and last element read";
    }

    @Override
    public void prepare(TokenBatch tokens) {
        if (closed) {
            throw new IllegalStateException("runner is closed");
        }
        int batch = tokens.batch();
        int seqLen = tokens.seqLen();
        fill.plan().requireFits(batch, seqLen);
        lastFirstOutput = null;
        List<Integer> key = List.of(batch, seqLen);
        ShapeTensors tensors = shapes.get(key);
        if (tensors == null) {
            tensors = allocate(batch, seqLen);
            shapes.put(key, tensors);
            evictBeyondLimits(tensors);
        }
        for (PlannedInput input : fill.plan().inputs()) {
            ByteBuffer values = tensors.inputBuffers().get(input.name());
            values.clear();
            fill.write(input, values, batch, seqLen, tokens.tokenIds(), tokens.attentionMask());
            values.rewind();
        }
        inputs = tensors.inputs();
        pinnedOutputs = tensors.pinnedOutputs();
        pinnedOutputBytes = tensors.pinnedOutputBytes();
        pinned = tensors.pinned();
    }

    /**
     * The tensors of one shape. The input tensors wrap direct buffers in native order, which ONNX Runtime reads in
     * place (no copy), so a later {@link #prepare} at the same shape writes its ids into the same buffers and reuses the
     * tensors: serving at a few shapes allocates no direct memory per batch.
     */
    private record ShapeTensors(Map<String, ByteBuffer> inputBuffers, Map<String, OnnxTensor> inputs,
                                Map<String, OnnxTensor> pinnedOutputs, List<ByteBuffer> pinnedOutputBytes, boolean pinned) {
        void close() {
            inputs.values().forEach(OnnxTensor::close);
            pinnedOutputs.values().forEach(OnnxTensor::close);
        }

        long bytes() {
            return inputBuffers.values().stream().mapToLong(ByteBuffer::capacity).sum()
                    + pinnedOutputBytes.stream().mapToLong(ByteBuffer::capacity).sum();
        }
    }

    /** Shapes whose tensors a runner keeps at most; a serving worker meets max batch x buckets of them. */
    static final int SHAPES_KEPT = 64;
    /** Direct memory a runner's kept shapes may hold at most, beyond the shape in use (a large model's outputs are big). */
    static final long BYTES_KEPT = 256L << 20;

    private ShapeTensors allocate(int batch, int seqLen) {
        Map<String, ByteBuffer> buffers = new LinkedHashMap<>();
        Map<String, OnnxTensor> tensors = new LinkedHashMap<>();
        Map<String, OnnxTensor> outputs = new LinkedHashMap<>();
        List<ByteBuffer> outputBytes = new ArrayList<>();
        try {
            for (PlannedInput input : fill.plan().inputs()) {
                long[] shape = fill.plan().shape(input, batch, seqLen);
                ByteBuffer values = ByteBuffer.allocateDirect(Math.toIntExact(Math.multiplyExact(InputPlan.elements(shape),
                        (long) input.type().bytes()))).order(ByteOrder.nativeOrder());
                buffers.put(input.name(), values);
                tensors.put(input.name(), OnnxTensor.createTensor(owner.environment(), values, shape,
                        OnnxRuntimeSession.onnxType(input.type())));
            }
            boolean pinnable = pinOutputs(batch, seqLen, outputs, outputBytes);
            return new ShapeTensors(buffers, tensors, outputs, outputBytes, pinnable);
        } catch (OrtException e) {
            new ShapeTensors(buffers, tensors, outputs, outputBytes, false).close();
            throw new BenchmarkException("Could not create input tensors for batch " + batch + " x seqLen " + seqLen, e);
        }
    }

    /**
     * Closes the least recently used shapes' tensors while more than {@value #SHAPES_KEPT} shapes or
     * {@link #BYTES_KEPT} bytes are kept; never {@code keep}, the shape in use.
     */
    private void evictBeyondLimits(ShapeTensors keep) {
        long bytes = shapes.values().stream().mapToLong(ShapeTensors::bytes).sum();
        var it = shapes.entrySet().iterator();
        while ((shapes.size() > SHAPES_KEPT || bytes > BYTES_KEPT) && it.hasNext()) {
            ShapeTensors oldest = it.next().getValue();
            if (oldest != keep) {
                bytes -= oldest.bytes();
                oldest.close();
                it.remove();
            }
        }
    }

    /**
     * Preallocates float outputs whose dims are fixed or named like an input axis the plan binds (batch, swept, or
     * {@code -Dbench.dims}); false if any is not.
     */
    private boolean pinOutputs(int batch, int seqLen, Map<String, OnnxTensor> pinnedOutputs, List<ByteBuffer> pinnedOutputBytes)
            throws OrtException {
        InputPlan plan = fill.plan();
        List<long[]> shapes = new ArrayList<>();
        for (TensorInfo info : owner.outputInfo().values()) {
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
                if (dim != null && !dim.isEmpty() && dim.equals(plan.batchAxis())) {
                    shape[i] = batch;
                } else if (dim != null && !dim.isEmpty() && dim.equals(plan.seqAxis())) {
                    shape[i] = seqLen;
                } else if (dim != null && plan.dims().containsKey(dim)) {
                    shape[i] = plan.dims().get(dim);
                } else {
                    return false;
                }
            }
            shapes.add(shape);
        }
        int i = 0;
        for (String name : owner.outputInfo().keySet()) {
            long[] shape = shapes.get(i++);
            long elements = 1;
            for (long d : shape) {
                elements = Math.multiplyExact(elements, d);
            }
            ByteBuffer bytes = ByteBuffer.allocateDirect(Math.toIntExact(elements * Float.BYTES)).order(ByteOrder.nativeOrder());
            pinnedOutputBytes.add(bytes);
            pinnedOutputs.put(name, OnnxTensor.createTensor(owner.environment(), bytes.asFloatBuffer(), shape));
        }
        return true;
    }

    @Override
    public long forward() {
        if (inputs.isEmpty()) {
            throw new IllegalStateException("prepare() must be called before forward()");
        }
        OrtSession session = owner.ortSession();
        try {
            if (pinned) {
                try (OrtSession.Result ignored = session.run(inputs, pinnedOutputs)) {
                    long checksum = 0;
                    for (ByteBuffer output : pinnedOutputBytes) {
                        checksum = checksum * 31 + firstAndLast(output);
                    }
                    return checksum;
                }
            }
            try (OrtSession.Result result = session.run(inputs)) {
                long checksum = 0;
                boolean first = true;
                for (Map.Entry<String, OnnxValue> output : result) {
                    if (output.getValue() instanceof OnnxTensor tensor) {
                        ByteBuffer copy = tensor.getByteBuffer();
                        if (first) {
                            lastFirstOutput = tensor.getInfo().type == OnnxJavaType.FLOAT ? copy : null;
                        }
                        checksum = checksum * 31 + firstAndLast(copy);
                    } else {
                        checksum = checksum * 31 + output.getValue().getValue().hashCode();
                    }
                    first = false;
                }
                return checksum;
            }
        } catch (OrtException e) {
            throw new BenchmarkException(forwardFailure(e.getMessage()), e);
        }
    }

    private static final java.util.regex.Pattern ALLOCATION = java.util.regex.Pattern.compile(
            "Failed to allocate memory for requested buffer of size (\\d+)");

    /**
     * What a failed pass says: ONNX Runtime's own message, and where it could not allocate a buffer (its arena's
     * "Failed to allocate memory for requested buffer of size N"), the size in GB and the fix, which its message lacks.
     */
    static String forwardFailure(String message) {
        java.util.regex.Matcher m = ALLOCATION.matcher(String.valueOf(message));
        if (!m.find()) {
            return "ONNX Runtime failed during a forward pass: " + message;
        }
        double gb = Long.parseLong(m.group(1)) / 1e9;
        return String.format(java.util.Locale.ROOT, "ONNX Runtime could not allocate a buffer of %.1f GB for this shape: "
                + "the pass needs more memory than the machine (or the GPU) has free. Lower -Dbench.batch or -Dbench.seq, "
                + "or run where there is more memory. (ONNX Runtime: %s)", gb, message);
    }

    @Override
    public float[] firstOutput() {
        FloatBuffer values;
        if (pinned) {
            values = pinnedOutputBytes.get(0).asFloatBuffer();
        } else if (lastFirstOutput != null) {
            values = lastFirstOutput.duplicate().order(ByteOrder.nativeOrder()).asFloatBuffer();
        } else {
            return new float[0];
        }
        float[] copy = new float[values.remaining()];
        values.get(copy);
        return copy;
    }

    private static long firstAndLast(ByteBuffer bytes) {
        int limit = bytes.limit();
        if (limit == 0) {
            return 0;
        }
        return ((long) bytes.get(0) << 8) ^ bytes.get(limit - 1) ^ limit;
    }

    /** The input tensor in use under {@code name}, for tests that check tensors are reused per shape. */
    OnnxTensor inputTensor(String name) {
        return inputs.get(name);
    }

    /** A view of a pinned float output, for tests that check values; empty when outputs are not pinned. */
    FloatBuffer pinnedOutput(int index) {
        return pinnedOutputBytes.get(index).asFloatBuffer();
    }

    /** Closes every kept shape's tensors; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            shapes.values().forEach(ShapeTensors::close);
            shapes.clear();
            inputs = Map.of();
            pinnedOutputs = Map.of();
            pinnedOutputBytes = List.of();
            pinned = false;
            lastFirstOutput = null;
        }
    }
}
