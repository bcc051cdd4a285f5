package io.inferbench.serve;

import java.util.List;

/**
 * One worker's hands on the model: builds a batch's inputs, runs the pass, hands each request its output. The three
 * steps are timed apart (prepare, forward, fetch). One per worker thread; not thread-safe.
 */
public interface BatchExecutor extends AutoCloseable {
    /** Builds the input tensors for these requests, one after the other in the batch. */
    void prepare(List<Request> batch);

    /** One pass over the prepared batch; returns when the outputs are in host memory. */
    void forward();

    /** Reads the pass's output and splits it into each request's result. */
    void fetch(List<Request> batch);

    /**
     * The parts of the last pass its session marked itself (a user's target's stages), each summed over the pass, by
     * name: each request of the batch is stamped with them. Empty for an engine's pass.
     */
    default java.util.Map<String, Long> lastPhasesNs() {
        return java.util.Map.of();
    }

    @Override
    void close();

    /** Makes one executor per worker. */
    interface Factory {
        BatchExecutor create();
    }
}
