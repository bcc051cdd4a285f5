package io.inferbench.engine.onnxruntime;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import io.inferbench.BenchmarkException;
import io.inferbench.inputs.ElementType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The host tensors a decoder's passes are fed, made where the generation and the batched rows both need them, each
 * added to the caller's list of tensors to close.
 *
 * <p><b>Direct buffers.</b> {@code OnnxTensor.createTensor} copies a heap buffer into a direct one; these are direct and
 * in native order, so the tensor wraps them as they are.
 */
final class HostTensors {
    private HostTensors() {
    }

    /** An int64 or int32 tensor ({@code idsType}, as the pass's ids input is typed). */
    static OnnxTensor ids(OrtEnvironment env, ElementType idsType, long[] values, long[] shape, List<OnnxTensor> owned) {
        boolean int32 = idsType == ElementType.INT32;
        ByteBuffer buffer = ByteBuffer.allocateDirect(values.length * (int32 ? 4 : 8)).order(ByteOrder.nativeOrder());
        for (long v : values) {
            if (int32) {
                buffer.putInt((int) v);
            } else {
                buffer.putLong(v);
            }
        }
        buffer.rewind();
        return wrap(env, buffer, shape, int32 ? OnnxJavaType.INT32 : OnnxJavaType.INT64, owned);
    }

    /** A float32 or float16 tensor over {@code buffer} (a cache's). */
    static OnnxTensor floats(OrtEnvironment env, ByteBuffer buffer, long[] shape, ElementType type, List<OnnxTensor> owned) {
        return wrap(env, buffer, shape, type == ElementType.FLOAT16 ? OnnxJavaType.FLOAT16 : OnnxJavaType.FLOAT, owned);
    }

    private static OnnxTensor wrap(OrtEnvironment env, ByteBuffer buffer, long[] shape, OnnxJavaType type,
                                   List<OnnxTensor> owned) {
        try {
            OnnxTensor tensor = OnnxTensor.createTensor(env, buffer, shape, type);
            owned.add(tensor);
            return tensor;
        } catch (OrtException e) {
            throw new BenchmarkException("ONNX Runtime could not make a generation input of shape " + Arrays.toString(shape)
                    + ": " + e.getMessage(), e);
        }
    }

    /**
     * The logits output copied into {@code into} (reallocated when its length differs), returned; the vocabulary is
     * the last axis of a rank-3 output, or the values per row of a rank-2 one.
     */
    static float[] logits(OnnxTensor out, float[] into) {
        FloatBuffer values = out.getFloatBuffer();
        float[] logits = into == null || into.length != values.remaining() ? new float[values.remaining()] : into;
        values.get(logits);
        return logits;
    }

    /** The logits' values per position: the last axis where it is {@code [batch, seq, vocab]}. */
    static int vocab(OnnxTensor out, int logitsRank, int length, int batch) {
        return logitsRank == 2 ? length / batch : (int) out.getInfo().getShape()[2];
    }
}
