package io.inferbench.serve.generation;

/**
 * Request-level batching, {@code static}: when the decoder is free, the waiting requests (up to the max batch; the oldest
 * held up to the max wait for more, while more are still to come) are prefilled together and generate together until
 * the longest is done; the finished rows stay in the batch, their tokens dropped.
 */
public final class StaticBatching implements Batching {
    @Override
    public String label() {
        return "static";
    }

    @Override
    public Decision next(Turn t) {
        if (t.running() > 0) {
            return Decision.STEP;
        }
        long formAt = t.oldestIntendedNs() + t.maxWaitNs();
        if (t.waiting() < t.maxBatch() && t.nowNs() < formAt && t.nextArrivalNs() >= 0) {
            return Decision.waitUntil(Math.min(Math.min(formAt, t.nextArrivalNs()), t.limitNs()));
        }
        return Decision.ADMIT;
    }

    @Override
    public boolean rowsJoinAndLeave() {
        return false;
    }
}
