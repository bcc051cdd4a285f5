package example.targets;

import ai.djl.Device;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.modality.Classifications;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.api.Call;
import io.inferbench.api.InferenceTarget;
import io.inferbench.api.Shape;
import io.inferbench.api.Stage;
import io.inferbench.api.Stages;
import io.inferbench.api.TargetContext;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A TorchScript classifier served the way DJL users serve a model: a {@code ZooModel} loaded through {@code Criteria} with
 * a {@code Translator} of their own, and a {@code Predictor} per thread whose {@code batchPredict} turns texts into
 * {@code Classifications}, which the service serializes to JSON.
 *
 * <p>The translator's two halves are stages ({@code processInput}: tokenizing one text to padded ids,
 * {@code processOutput}: the softmax and labels of one row), marked once per text, so their time per call is the batch's;
 * {@code serialize} is the JSON. What the predictor does between them (stacking the rows into a batch, the TorchScript
 * forward, splitting the output) is the row outside any stage.
 *
 * <p>Run it on the repository's TorchScript fixture ({@code -Dbench.model=benchmarks/src/test/resources/torchscript/tiny_classifier.pt},
 * {@code forward(input_ids, attention_mask) -> logits [batch, 2]}, an embedding of 2,000 rows: the tokenizer's ids are
 * folded into it, {@code -Dbench.target.vocab}); docs/targets.md has the command. The harness sets DJL offline and
 * points it at its own natives before this class is loaded, as for its own DJL engine.
 */
public class DjlClassifier implements InferenceTarget {
    private static final String TOKENIZER = "/all-minilm-l6-v2-tokenizer.json";

    private final ObjectMapper json = new ObjectMapper();
    private Stages stages;
    private HuggingFaceTokenizer tokenizer;
    private ZooModel<Request, Classifications> model;
    private List<String> labels;
    private int vocab;
    /** A {@code Predictor} is not thread-safe: each thread that calls (a serving worker) has its own. */
    private final List<Predictor<Request, Classifications>> predictors = new ArrayList<>();
    private final ThreadLocal<Predictor<Request, Classifications>> predictor = ThreadLocal.withInitial(this::newPredictor);

    /** One text to classify, with the length the service pads it to. */
    public record Request(String text, int seqLen) {
    }

    @Override
    public void open(TargetContext context) throws Exception {
        if (context.modelPath() == null || !context.modelPath().toString().endsWith(".pt")) {
            throw new IllegalArgumentException("DjlClassifier loads a TorchScript classifier: run it with "
                    + "-Dbench.model=benchmarks/src/test/resources/torchscript/tiny_classifier.pt or your own .pt file");
        }
        stages = context.stages();
        labels = List.of(context.property("labels", "negative,positive").split(","));
        vocab = Integer.parseInt(context.property("vocab", "2000"));
        System.setProperty("ai.djl.pytorch.num_threads", Integer.toString(context.threads()));
        System.setProperty("ai.djl.pytorch.num_interop_threads", "1");
        try (InputStream in = DjlClassifier.class.getResourceAsStream(TOKENIZER)) {
            if (in == null) {
                throw new IllegalStateException(TOKENIZER + " is not on the class path");
            }
            tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of("padding", "false", "truncation", "false"));
        }
        Device device = context.device().startsWith("cuda")
                ? Device.gpu(context.device().contains(":") ? Integer.parseInt(context.device().split(":")[1]) : 0)
                : Device.cpu();
        model = Criteria.builder()
                .setTypes(Request.class, Classifications.class)
                .optModelPath(context.modelPath().getParent())
                .optModelName(context.modelPath().getFileName().toString().replaceFirst("\\.pt$", ""))
                .optEngine("PyTorch")
                .optDevice(device)
                .optTranslator(new ClassifierTranslator())
                .build()
                .loadModel();
    }

    private synchronized Predictor<Request, Classifications> newPredictor() {
        Predictor<Request, Classifications> p = model.newPredictor();
        predictors.add(p);
        return p;
    }

    @Override
    public Call prepare(Shape shape) {
        List<Request> requests = new ArrayList<>(shape.batch());
        List<String> texts = shape.texts().isEmpty() ? words(shape) : shape.texts();
        texts.forEach(t -> requests.add(new Request(t, shape.seqLen())));
        return () -> {
            List<Classifications> answers = predictor.get().batchPredict(requests);
            try (Stage s = stages.begin("serialize")) {
                List<Map<String, Object>> out = new ArrayList<>(answers.size());
                for (Classifications c : answers) {
                    Classifications.Classification best = c.best();
                    out.add(Map.of("label", best.getClassName(), "score", best.getProbability()));
                }
                return json.writeValueAsString(Map.of("predictions", out));
            }
        };
    }

    /** Texts to padded ids and a mask, and logits to labels: the translator a DJL user writes for their model. */
    private final class ClassifierTranslator implements Translator<Request, Classifications> {
        @Override
        public NDList processInput(TranslatorContext ctx, Request request) {
            try (Stage s = stages.begin("processInput")) {
                long[] tokens = tokenizer.encode(request.text()).getIds();
                long[] ids = new long[request.seqLen()];
                long[] mask = new long[request.seqLen()];
                for (int i = 0; i < Math.min(tokens.length, ids.length); i++) {
                    ids[i] = Math.floorMod(tokens[i], vocab);
                    mask[i] = 1;
                }
                NDManager manager = ctx.getNDManager();
                return new NDList(manager.create(ids), manager.create(mask));
            }
        }

        @Override
        public Classifications processOutput(TranslatorContext ctx, NDList list) {
            try (Stage s = stages.begin("processOutput")) {
                NDArray probabilities = list.singletonOrThrow().softmax(-1);
                return new Classifications(labels, probabilities);
            }
        }
    }

    private static List<String> words(Shape shape) {
        Random random = new Random(shape.seed());
        List<String> texts = new ArrayList<>(shape.batch());
        for (int row = 0; row < shape.batch(); row++) {
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < Math.max(1, shape.seqLen() - 2); w++) {
                text.append(w == 0 ? "" : " ").append("w").append(random.nextInt(500));
            }
            texts.add(text.toString());
        }
        return texts;
    }

    @Override
    public void close() {
        predictors.forEach(Predictor::close);
        predictors.clear();
        if (model != null) {
            model.close();
            model = null;
        }
        if (tokenizer != null) {
            tokenizer.close();
            tokenizer = null;
        }
    }
}
