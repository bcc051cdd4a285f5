package io.inferbench.shard;

import io.inferbench.BenchmarkException;

/**
 * {@code -Dbench.shard=I/N}: the I-th of N parts of a sweep's plan, 1-based, so that a CI matrix index or a Kubernetes
 * Indexed Job's {@code JOB_COMPLETION_INDEX} (0-based: pass {@code $((JOB_COMPLETION_INDEX + 1))/N}) picks its part.
 */
public record Shard(int index, int count) {
    public Shard {
        if (count < 1 || index < 1 || index > count) {
            throw new BenchmarkException("-Dbench.shard=" + index + "/" + count + " names no part of the plan: give I/N with "
                    + "1 <= I <= N, e.g. 1/2 and 2/2 for two shards");
        }
    }

    /** Parses {@code I/N}. */
    public static Shard parse(String text) {
        String[] parts = text.trim().split("/");
        try {
            if (parts.length == 2) {
                return new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
            }
        } catch (NumberFormatException e) {
            // the message below says what is expected
        }
        throw new BenchmarkException("-Dbench.shard=" + text + " is not I/N: give the part and the number of parts, e.g. "
                + "-Dbench.shard=1/4 (1-based; a Kubernetes Indexed Job passes $((JOB_COMPLETION_INDEX + 1))/4)");
    }

    public String label() {
        return index + "/" + count;
    }
}
