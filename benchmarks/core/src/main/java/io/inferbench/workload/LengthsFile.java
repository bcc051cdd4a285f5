package io.inferbench.workload;

import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A length distribution without the text ({@code -Dbench.lengths=FILE}): one token count per line, or
 * {@code length,count} rows, for users who can export lengths but not requests. Blank lines and {@code #} comments
 * are ignored; anything else that is not a positive whole number (and a positive count) is refused with its line.
 */
public final class LengthsFile {
    private LengthsFile() {
    }

    public static Workload read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the lengths file " + file.toAbsolutePath() + " (" + e
                    + "): point -Dbench.lengths at a readable file of token counts, one per line or length,count", e);
        }
        List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s*,\\s*");
            if (parts.length > 2) {
                throw bad(file, i, line, "more than two fields");
            }
            int length = positive(file, i, line, parts[0], "length");
            long count = parts.length == 2 ? positive(file, i, line, parts[1], "count") : 1;
            if (lengths.size() + count > 50_000_000) {
                throw bad(file, i, line, "more than 50 million requests in all");
            }
            for (long c = 0; c < count; c++) {
                lengths.add(length);
            }
        }
        if (lengths.isEmpty()) {
            throw new BenchmarkException("The lengths file " + file.toAbsolutePath() + " lists no lengths: write one token "
                    + "count per line (e.g. 384) or length,count rows (e.g. 384,120)");
        }
        return Workload.lengthsOnly("lengths file " + file.toAbsolutePath(), Sha256.of(file),
                lengths.stream().mapToInt(Integer::intValue).toArray(), "a lengths file: nothing to tokenize");
    }

    private static int positive(Path file, int index, String line, String field, String what) {
        int value;
        try {
            value = Integer.parseInt(field);
        } catch (NumberFormatException e) {
            throw bad(file, index, line, "the " + what + " '" + field + "' is not a whole number");
        }
        if (value <= 0) {
            throw bad(file, index, line, "the " + what + " " + value + " is not 1 or more");
        }
        return value;
    }

    private static BenchmarkException bad(Path file, int index, String line, String why) {
        return new BenchmarkException("Line " + (index + 1) + " of the lengths file " + file.toAbsolutePath() + " is '" + line
                + "': " + why + ". Write one token count per line (e.g. 384) or length,count rows (e.g. 384,120)");
    }
}
