package io.inferbench.sweep;

import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a sequence-length bucket file ({@code buckets/*.buckets}): one bucket per line, in tokens; blank lines
 * and {@code #} comments ignored. The bucket is the padded length fed to the model.
 */
public final class BucketFile {
    private BucketFile() {
    }

    public static List<Integer> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the bucket file " + file.toAbsolutePath() + ": " + e
                    + ". Point -Dbench.buckets at a readable file, or give lengths directly with -Dbench.seq=64,256", e);
        }
        List<Integer> buckets = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            buckets.add(parseLength(line, i + 1, file));
        }
        if (buckets.isEmpty()) {
            throw new BenchmarkException("The bucket file " + file.toAbsolutePath() + " lists no sequence lengths: "
                    + "add one length per line, e.g. 64");
        }
        return List.copyOf(buckets);
    }

    private static int parseLength(String text, int lineNumber, Path file) {
        int length;
        try {
            length = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new BenchmarkException("Line " + lineNumber + " of the bucket file " + file.toAbsolutePath() + " is '" + text
                    + "', not a sequence length: write one whole number of tokens per line, e.g. 64", e);
        }
        if (length <= 0) {
            throw new BenchmarkException("Line " + lineNumber + " of the bucket file " + file.toAbsolutePath() + " is " + length
                    + ": a sequence length must be 1 or more tokens");
        }
        return length;
    }
}
