package io.inferbench.engine;

import java.util.List;

/**
 * Turns text into the token ids a model takes: a Hugging Face {@code tokenizer.json} run by its own native library,
 * opened through {@link #open}, which finds the implementation the way {@link Engines} finds engines (a
 * {@link Factory} named in {@code META-INF/services}). Lives with the engines because it is native code loaded the way an
 * engine's is. Thread-safe: the native tokenizer is stateless per call.
 */
public interface TextTokenizer extends AutoCloseable {
    /** The ids of one document, special tokens ({@code [CLS]}, {@code [SEP]}) included, never truncated or padded. */
    long[] encode(String text);

    /** The ids of many documents at once; the native library spreads the work over the cores. */
    List<long[]> encodeAll(List<String> texts);

    /** The token each id stands for, for checking ids against the vocabulary. */
    List<String> tokens(String text);

    /** Idempotent. */
    @Override
    void close();

    /** Opens a {@code tokenizer.json}; registered in {@code META-INF/services/io.inferbench.engine.TextTokenizer$Factory}. */
    interface Factory {
        /**
         * @param tokenizerJson  a Hugging Face {@code tokenizer.json}
         * @param nativeCacheDir where the tokenizer's native library is extracted ({@code -Dbench.nativeCache})
         */
        TextTokenizer open(java.nio.file.Path tokenizerJson, java.nio.file.Path nativeCacheDir);
    }

    /** The tokenizer of {@code tokenizerJson}, through the registered {@link Factory}. */
    static TextTokenizer open(java.nio.file.Path tokenizerJson, java.nio.file.Path nativeCacheDir) {
        Factory factory = java.util.ServiceLoader.load(Factory.class, TextTokenizer.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no tokenizer is registered in META-INF/services/"
                        + Factory.class.getName() + ": the build is incomplete"));
        return factory.open(tokenizerJson, nativeCacheDir);
    }
}
