package io.inferbench.inputs;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.List;

/**
 * A cache input and the output that holds its next value: one step's {@code present} is the next step's {@code past}.
 *
 * @param past    the input's name
 * @param present the output's name
 */
public record KvPair(String past, String present) {
    /**
     * Parses {@code -Dbench.kvPairs}: {@code past:present,...}; empty gives none.
     *
     * @throws BenchmarkException naming the entry that is not {@code INPUT:OUTPUT}
     */
    public static List<KvPair> parse(String value) {
        List<KvPair> pairs = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return pairs;
        }
        for (String entry : value.split(",")) {
            String[] parts = entry.trim().split(":");
            if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                throw new BenchmarkException("-Dbench.kvPairs entry '" + entry.trim() + "' is not INPUT:OUTPUT: give each "
                        + "cache input and the output that holds its next value, e.g. -Dbench.kvPairs=k_cache_0:k_cache_0_next,"
                        + "v_cache_0:v_cache_0_next");
            }
            pairs.add(new KvPair(parts[0].trim(), parts[1].trim()));
        }
        return List.copyOf(pairs);
    }

    @Override
    public String toString() {
        return past + ":" + present;
    }
}
