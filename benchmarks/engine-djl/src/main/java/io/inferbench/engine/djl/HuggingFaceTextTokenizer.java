package io.inferbench.engine.djl;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.TextTokenizer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A Hugging Face {@code tokenizer.json} through DJL's {@code ai.djl.huggingface:tokenizers}, whose Rust library comes
 * inside the jar and is extracted into the DJL cache folder once, offline (the same offline settings as the PyTorch
 * engine: nothing is downloaded). Padding and truncation are off: the harness pads to buckets itself and counts what it
 * truncates.
 */
public final class HuggingFaceTextTokenizer implements TextTokenizer {
    private final HuggingFaceTokenizer tokenizer;
    private boolean closed;

    private HuggingFaceTextTokenizer(HuggingFaceTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /**
     * @param tokenizerJson a Hugging Face {@code tokenizer.json}
     * @param nativeCacheDir   where the native library is extracted
     */
    public static HuggingFaceTextTokenizer open(Path tokenizerJson, Path nativeCacheDir) {
        DjlPyTorchEngine.configureOffline(nativeCacheDir);
        try {
            return new HuggingFaceTextTokenizer(HuggingFaceTokenizer.newInstance(tokenizerJson,
                    Map.of("padding", "false", "truncation", "false", "addSpecialTokens", "true")));
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            throw new BenchmarkException("Could not load " + tokenizerJson + " as a Hugging Face tokenizer (" + e.getMessage()
                    + "). Give -Dbench.tokenizer the tokenizer.json of a Hugging Face tokenizer (saved with "
                    + "tokenizer.save(\"tokenizer.json\") or from the model's repository)", e);
        }
    }

    @Override
    public long[] encode(String text) {
        return tokenizer.encode(text).getIds();
    }

    @Override
    public List<long[]> encodeAll(List<String> texts) {
        Encoding[] encodings = tokenizer.batchEncode(texts);
        List<long[]> ids = new ArrayList<>(encodings.length);
        for (Encoding e : encodings) {
            ids.add(e.getIds());
        }
        return ids;
    }

    @Override
    public List<String> tokens(String text) {
        return Arrays.asList(tokenizer.encode(text).getTokens());
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            tokenizer.close();
        }
    }
}
