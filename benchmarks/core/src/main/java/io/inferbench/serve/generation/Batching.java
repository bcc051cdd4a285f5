package io.inferbench.serve.generation;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * How a decoder under load groups requests into batches ({@code -Dbench.batching}): one policy object that the
 * {@link Scheduler} asks at every turn, for the live run ({@link EnginePasses}) and the forecast ({@link ForecastPasses})
 * alike. A policy is found by name through {@link ServiceLoader}: a new one is a class implementing this with a public
 * no-argument constructor and one line in {@code META-INF/services/io.inferbench.serve.generation.Batching}.
 *
 * <p>A policy only decides; the scheduler keeps the queue and the running batch, runs the passes and keeps the clock.
 * So a policy cannot send a request early, or lose one.
 */
public interface Batching {
    /** The name {@code -Dbench.batching} takes and results record: lower case, one word. */
    String label();

    /**
     * What the scheduler does at this turn, given the queue and the batch. Asked only when a request waits or rows run.
     */
    Decision next(Turn turn);

    /**
     * True when rows join a running batch and leave it when done (iteration-level): each finished row leaves after the
     * pass that finished it, and requests of different lengths share a batch, so the decoder must pad them. False when a
     * batch runs until its longest row is done, its finished rows kept and their tokens dropped.
     */
    boolean rowsJoinAndLeave();

    /**
     * The scheduler's state at one turn.
     *
     * @param nowNs            the clock
     * @param waiting          requests arrived and not yet prefilled
     * @param oldestIntendedNs the intended send of the oldest waiting request; meaningless when none waits
     * @param running          rows in the running batch
     * @param maxBatch         the most rows a batch holds
     * @param maxWaitNs        how long the oldest waiting request may be held for more ({@code -Dbench.maxWaitMs})
     * @param nextArrivalNs    the next request's intended send, or {@code -1} when every request has arrived
     * @param limitNs          the drain limit, after which nothing more is served
     */
    record Turn(long nowNs, int waiting, long oldestIntendedNs, int running, int maxBatch, long maxWaitNs,
                long nextArrivalNs, long limitNs) {
    }

    /**
     * What to do: wait until {@code waitUntilNs} (when {@code >= 0}; nothing else then), else prefill the waiting
     * requests that fit ({@code admit}) and then step the running rows once ({@code step}), either or both.
     */
    record Decision(boolean admit, boolean step, long waitUntilNs) {
        public static final Decision ADMIT = new Decision(true, false, -1);
        public static final Decision STEP = new Decision(false, true, -1);

        public static Decision waitUntil(long ns) {
            return new Decision(false, false, ns);
        }
    }

    /** Every policy of this build, in the order of the service file's lines. */
    static List<Batching> all() {
        List<Batching> all = new ArrayList<>();
        ServiceLoader.load(Batching.class, Batching.class.getClassLoader()).forEach(all::add);
        return List.copyOf(all);
    }

    /** The policy called {@code name}, or an error listing every one. */
    static Batching named(String name) {
        return all().stream().filter(b -> b.label().equals(name.trim())).findFirst()
                .orElseThrow(() -> new BenchmarkException("-Dbench.batching: unknown policy '" + name.trim() + "': expected "
                        + String.join(", ", all().stream().map(Batching::label).toList()) + ", or several, comma-separated"));
    }

    /** {@code static,continuous}: each once, in the order given. */
    static List<Batching> parseAll(String value) {
        List<Batching> policies = new ArrayList<>();
        for (String part : value.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            Batching b = named(part);
            if (policies.stream().noneMatch(p -> p.label().equals(b.label()))) {
                policies.add(b);
            }
        }
        if (policies.isEmpty()) {
            throw new BenchmarkException("-Dbench.batching is empty: give one or more of "
                    + String.join(", ", all().stream().map(Batching::label).toList()) + ", comma-separated");
        }
        return List.copyOf(policies);
    }
}
