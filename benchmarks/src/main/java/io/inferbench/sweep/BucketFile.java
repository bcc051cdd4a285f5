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
            buckets.add(SweepOptions.positiveInt(line, "sequence length on line " + (i + 1) + " of " + file));
        }
        if (buckets.isEmpty()) {
            throw new BenchmarkException("The bucket file " + file.toAbsolutePath() + " lists no sequence lengths: "
                    + "add one length per line, e.g. 64");
        }
        return List.copyOf(buckets);
    }
}
