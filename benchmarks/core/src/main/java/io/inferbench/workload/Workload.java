package io.inferbench.workload;

import java.util.Arrays;
import java.util.List;

/**
 * The requests a service sees, in the order they come: each one's true length in tokens, and for a text workload its
 * text and token ids (so the model computes over real ids, and tokenization can be timed).
 *
 * @param source          what the requests are, in words (file path, or the built-in corpus and where it comes from)
 * @param sourceSha256    SHA-256 of the text or lengths file as read
 * @param tokenizer       the tokenizer's description, or null for a lengths-only workload
 * @param tokenizerSha256 SHA-256 of the {@code tokenizer.json}, or null
 * @param lengths         each request's true length in tokens (special tokens included), in order
 * @param texts           each request's text, or null for a lengths-only workload
 * @param tokenIds        each request's ids, or null for a lengths-only workload
 * @param skippedLines    empty lines of a text file, left out (an empty request is not a request)
 * @param tokenizeNote    how the token ids were obtained: tokenized now, with its throughput, or read from the cache
 */
public record Workload(String source, String sourceSha256, String tokenizer, String tokenizerSha256, int[] lengths,
                       List<String> texts, List<long[]> tokenIds, int skippedLines, String tokenizeNote) {

    public int requests() {
        return lengths.length;
    }

    public boolean hasText() {
        return texts != null;
    }

    /** The lengths in increasing order (a copy). */
    public int[] sortedLengths() {
        int[] sorted = lengths.clone();
        Arrays.sort(sorted);
        return sorted;
    }
}
