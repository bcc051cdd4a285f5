package io.inferbench.serve.generation;

/**
 * Iteration-level batching, {@code continuous}, as vLLM and TGI schedule: each iteration prefills the waiting requests
 * that fit in the free rows (one pass), they join the running batch, and every running row steps once; a row leaves
 * when it is done. A running row's gap across an iteration with a prefill includes that prefill (no chunked prefill).
 */
public final class ContinuousBatching implements Batching {
    @Override
    public String label() {
        return "continuous";
    }

    @Override
    public Decision next(Turn t) {
        return new Decision(t.waiting() > 0 && t.running() < t.maxBatch(), true, -1);
    }

    @Override
    public boolean rowsJoinAndLeave() {
        return true;
    }
}
