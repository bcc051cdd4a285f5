package io.inferbench.serve.generation;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** How a decoder under load groups requests into batches ({@code -Dbench.batching}). */
public enum Batching {
    /**
     * Request-level: when the decoder is free, the waiting requests (up to the max batch; the oldest held up to the max
     * wait for more) are prefilled together and generate together until the longest is done; the finished rows stay in
     * the batch, their tokens discarded.
     */
    STATIC,
    /**
     * Iteration-level, as vLLM and TGI schedule: each iteration prefills the waiting requests that fit in the free rows
     * (one pass), they join the running batch, and every running row steps once; a row leaves when it is done. A
     * running row's gap across an iteration with a prefill includes that prefill (no chunked prefill).
     */
    CONTINUOUS;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code static,continuous}: each once, in the order given. */
    public static List<Batching> parseAll(String value) {
        List<Batching> policies = new ArrayList<>();
        for (String part : value.split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            Batching b;
            try {
                b = valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new BenchmarkException("-Dbench.batching: unknown policy '" + name + "': expected static, continuous "
                        + "or both, comma-separated", e);
            }
            if (!policies.contains(b)) {
                policies.add(b);
            }
        }
        if (policies.isEmpty()) {
            throw new BenchmarkException("-Dbench.batching is empty: give static, continuous or static,continuous");
        }
        return List.copyOf(policies);
    }
}
