package io.inferbench.serve.generation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One thread that is both the load's clock and the decoder's scheduler: requests arrive when the clock passes their
 * intended send (nothing is sent early, and a request the scheduler notices late has waited from its intended time, not
 * from when it was noticed: no coordinated omission), wait in a queue, and are batched by the policy
 * ({@link Batching}). The passes run on this thread, one at a time, as one decoder serves.
 *
 * <p>After the last send it keeps serving for the drain time; what is not done then is left unfinished and counted at
 * the limit. A pass that fails fails the requests in it; the batch is emptied and serving goes on.
 */
final class Scheduler {
    /** One decode step: when it ended, the rows it ran and the cache the batch held after it. */
    record StepSample(long atNs, int rows, long cacheBytes, long usedCacheBytes) {
    }

    /**
     * Every request as it ended, each step, each prefill's prompts, the drain limit, and the time joins and leaves spent
     * re-laying the cache.
     */
    record Trace(List<LoadRequest> requests, List<StepSample> steps, Map<Integer, Long> prefillsByRows, long limitNs,
                 long relayoutNs) {
    }

    private final Passes passes;
    private final Batching policy;
    private final int maxBatch;
    private final long maxWaitNs;
    private final ArrayDeque<LoadRequest> waiting = new ArrayDeque<>();
    private final List<LoadRequest> running = new ArrayList<>();
    private final List<StepSample> steps = new ArrayList<>();
    private final Map<Integer, Long> prefills = new TreeMap<>();

    Scheduler(Passes passes, Batching policy, int maxBatch, long maxWaitNs) {
        this.passes = passes;
        this.policy = policy;
        this.maxBatch = maxBatch;
        this.maxWaitNs = maxWaitNs;
    }

    /** Serves {@code requests} (in order of intended send) until all are done or the drain limit passes. */
    Trace run(List<LoadRequest> requests, long drainNs) {
        long limit = (requests.isEmpty() ? 0 : requests.get(requests.size() - 1).intendedNs) + drainNs;
        int next = 0;
        try {
            while (true) {
                long now = passes.nowNs();
                while (next < requests.size() && requests.get(next).intendedNs <= now) {
                    waiting.add(requests.get(next++));
                }
                if (now >= limit || running.isEmpty() && waiting.isEmpty() && next == requests.size()) {
                    break;
                }
                if (running.isEmpty() && waiting.isEmpty()) {
                    passes.waitUntil(requests.get(next).intendedNs);
                    continue;
                }
                Batching.Decision decision = policy.next(new Batching.Turn(now, waiting.size(),
                        waiting.isEmpty() ? now : waiting.peekFirst().intendedNs, running.size(), maxBatch, maxWaitNs,
                        next < requests.size() ? requests.get(next).intendedNs : -1, limit));
                if (decision.waitUntilNs() >= 0) {
                    passes.waitUntil(decision.waitUntilNs());
                    continue;
                }
                boolean admits = decision.admit() && !waiting.isEmpty();
                if (admits) {
                    admit();
                }
                boolean steps = decision.step() && !running.isEmpty();
                if (steps) {
                    step();
                }
                if (!admits && !steps) {
                    throw new IllegalStateException("batching policy '" + policy.label() + "' neither admitted, stepped nor "
                            + "waited with " + waiting.size() + " waiting and " + running.size() + " running: it would spin");
                }
            }
        } finally {
            passes.clear();
        }
        return new Trace(requests, steps, prefills, limit, passes.relayoutNs());
    }

    /** Prefills the waiting requests that fit, together; they join the running batch with their first token. */
    private void admit() {
        List<LoadRequest> joiners = new ArrayList<>();
        while (!waiting.isEmpty() && running.size() + joiners.size() < maxBatch) {
            joiners.add(waiting.pollFirst());
        }
        long start = passes.nowNs();
        joiners.forEach(r -> r.prefillStartNs = start);
        try {
            long[] tokens = passes.prefill(joiners.stream().map(r -> r.prompt).toList());
            long at = passes.nowNs();
            for (int i = 0; i < joiners.size(); i++) {
                joiners.get(i).token(tokens[i], at);
            }
            passes.join();
        } catch (RuntimeException e) {
            fail(joiners, e);
            fail(running, e);
            return;
        }
        prefills.merge(joiners.size(), 1L, Long::sum);
        running.addAll(joiners);
        if (policy.rowsJoinAndLeave()) {
            leaveDone();
        } else {
            endIfDone();
        }
    }

    /** One step over the running rows; a done row of a static batch is fed its last token, and what it makes is dropped. */
    private void step() {
        long[] tokens = running.stream().mapToLong(r -> r.lastToken).toArray();
        try {
            long[] next = passes.step(tokens);
            long at = passes.nowNs();
            for (int r = 0; r < running.size(); r++) {
                running.get(r).token(next[r], at);
            }
            steps.add(new StepSample(at, running.size(), passes.cacheBytes(), passes.usedCacheBytes()));
        } catch (RuntimeException e) {
            fail(running, e);
            return;
        }
        if (policy.rowsJoinAndLeave()) {
            leaveDone();
        } else {
            endIfDone();
        }
    }

    private void endIfDone() {
        if (running.stream().allMatch(LoadRequest::done)) {
            passes.clear();
            running.clear();
        }
    }

    private void leaveDone() {
        int[] done = java.util.stream.IntStream.range(0, running.size()).filter(r -> running.get(r).done()).toArray();
        if (done.length == 0) {
            return;
        }
        passes.leave(done);
        for (int k = done.length - 1; k >= 0; k--) {
            running.remove(done[k]);
        }
    }

    /** The requests of a failed pass fail with it; the batch is emptied. */
    private void fail(List<LoadRequest> requests, RuntimeException e) {
        String why = e.getClass().getSimpleName() + ": " + e.getMessage();
        requests.forEach(r -> r.error = why);
        if (requests == running) {
            running.clear();
        }
        passes.clear();
    }
}
