package io.inferbench.workload;

import io.inferbench.BenchmarkException;

import java.nio.file.Path;

/**
 * Which real inputs to analyse and stream (the command line builds it from {@code bench.text}, {@code bench.tokenizer},
 * {@code bench.lengths}, {@code bench.maxLength} and {@code bench.mixedRequests}).
 *
 * @param text           a UTF-8 file of one document per line, {@link TextWorkloads#BUILTIN}, or null
 * @param tokenizer      a Hugging Face {@code tokenizer.json}, or null for the built-in one (text workloads only)
 * @param lengths        a file of token counts, or null
 * @param maxLength      the model's longest input in tokens, or null for none: longer requests are truncated to it and
 *                       counted. It is not read from the model; give it for a model with a fixed or limited sequence axis
 * @param mixedRequests  measured requests in the mixed stream, per engine, device and model
 */
public record WorkloadOptions(String text, Path tokenizer, Path lengths, Integer maxLength, int mixedRequests) {
    /** Warm-up requests of the mixed stream, run the same way and left out. */
    public static final int MIXED_WARMUP = 20;

    public WorkloadOptions {
        if (text != null && lengths != null) {
            throw new BenchmarkException("-Dbench.text and -Dbench.lengths both describe the requests: give one of them");
        }
        if (tokenizer != null && text == null) {
            throw new BenchmarkException("-Dbench.tokenizer needs -Dbench.text: a tokenizer is for text");
        }
        if (maxLength != null && maxLength < 1) {
            throw new BenchmarkException("-Dbench.maxLength must be 1 or more tokens, got " + maxLength);
        }
        if (mixedRequests < 1) {
            throw new BenchmarkException("-Dbench.mixedRequests must be 1 or more, got " + mixedRequests);
        }
    }

    public boolean any() {
        return text != null || lengths != null;
    }

    /** Reads (and for text, tokenizes, or reads back from the cache) the requests: before the sweep, so bad input stops it. */
    public Workload load(Path cacheDir, Path nativeCacheDir) {
        return text != null ? TextWorkloads.load(text, tokenizer, cacheDir, nativeCacheDir) : LengthsFile.read(lengths);
    }
}
