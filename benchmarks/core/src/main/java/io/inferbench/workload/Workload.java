package io.inferbench.workload;

import java.util.Arrays;
import java.util.List;

/**
 * The requests a service sees, in the order they come: each one's true length in tokens, and for a text workload its
 * text and token ids (so the model computes over real ids, and tokenization can be timed).
 *
 * @param source       what the requests are, in words (file path, or the built-in corpus and where it comes from)
 * @param sourceSha256 SHA-256 of the text or lengths file as read
 * @param lengths      each request's true length in tokens (special tokens included), in order
 * @param text         the requests' texts and ids, and what tokenized them; null for a lengths-only workload
 * @param skippedLines empty lines of a text file, left out (an empty request is not a request)
 * @param tokenizeNote how the token ids were obtained: tokenized now, with its throughput, or read from the cache
 */
public record Workload(String source, String sourceSha256, int[] lengths, Tokenized text, int skippedLines,
                       String tokenizeNote) {

    /**
     * A text workload's requests as the model sees them.
     *
     * @param tokenizer       the tokenizer's description
     * @param tokenizerSha256 SHA-256 of the {@code tokenizer.json}
     * @param texts           each request's text
     * @param tokenIds        each request's ids
     */
    public record Tokenized(String tokenizer, String tokenizerSha256, List<String> texts, List<long[]> tokenIds) {
    }

    /** A workload of lengths alone: nothing to tokenize. */
    public static Workload lengthsOnly(String source, String sourceSha256, int[] lengths, String note) {
        return new Workload(source, sourceSha256, lengths, null, 0, note);
    }

    public int requests() {
        return lengths.length;
    }

    public boolean hasText() {
        return text != null;
    }

    /** The tokenizer's description, or null for a lengths-only workload. */
    public String tokenizer() {
        return text == null ? null : text.tokenizer();
    }

    /** SHA-256 of the {@code tokenizer.json}, or null. */
    public String tokenizerSha256() {
        return text == null ? null : text.tokenizerSha256();
    }

    /** Each request's text, or null for a lengths-only workload. */
    public List<String> texts() {
        return text == null ? null : text.texts();
    }

    /** Each request's ids, or null for a lengths-only workload. */
    public List<long[]> tokenIds() {
        return text == null ? null : text.tokenIds();
    }

    /** The lengths in increasing order (a copy). */
    public int[] sortedLengths() {
        int[] sorted = lengths.clone();
        Arrays.sort(sorted);
        return sorted;
    }
}
