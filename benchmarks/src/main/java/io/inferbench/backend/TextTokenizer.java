package io.inferbench.backend;

import java.util.List;

/**
 * Turns text into the token ids a model takes: a Hugging Face {@code tokenizer.json} run by its own native library
 * (see {@link HuggingFaceTextTokenizer}). Lives with the engines because it is native code loaded through DJL.
 * Thread-safe: the native tokenizer is stateless per call.
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
}
