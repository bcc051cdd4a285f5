package io.inferbench.serve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Open-loop load: a generator thread sends each request at its intended time, whatever the model is doing, into a
 * queue that {@link ServingPolicy#workers()} worker threads serve, each forming batches by the policy.
 *
 * <p><b>Why open loop.</b> A client that waits for each answer before sending the next (a closed loop) sends nothing
 * while the model stalls, so the stall hides in one sample: coordinated omission. Here the generator keeps the schedule;
 * requests pile up behind a stall, and each one's latency counts from when it was meant to be sent.
 *
 * <p><b>The generator's precision.</b> It parks until about {@value #SPIN_NS} ns before each intended time and spins
 * the rest, so sends are typically within tens of microseconds; a send more than 1 ms late counts as late, and a point
 * with more than 1% late sends is marked not sustained (the generator could not keep the pace, so the numbers describe
 * the generator as much as the model).
 *
 * <p><b>Nothing is lost.</b> After the last send, the workers drain the queue for up to {@code drainLimitNs}; whatever
 * is still unfinished then is failed, so sent = completed + failed in every case.
 */
public final class OpenLoopRun {
    static final long SPIN_NS = 100_000;

    private final ServingPolicy policy;
    private final BatchExecutor.Factory executors;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    private boolean sending = true;

    public OpenLoopRun(ServingPolicy policy, BatchExecutor.Factory executors) {
        this.policy = policy;
        this.executors = executors;
    }

    /**
     * Sends requests at {@code intendedOffsetsNs} (from now) and waits for them.
     *
     * @param drainLimitNs how long after the last send unfinished requests may still complete
     */
    public List<Request> run(long[] intendedOffsetsNs, long drainLimitNs) throws InterruptedException {
        return run(intendedOffsetsNs, null, drainLimitNs);
    }

    /** As {@link #run(long[], long)}, request {@code i} being the workload's request {@code mix[i]} (null: no workload). */
    public List<Request> run(long[] intendedOffsetsNs, int[] mix, long drainLimitNs) throws InterruptedException {
        List<Request> requests = new ArrayList<>(intendedOffsetsNs.length);
        List<BatchExecutor> made = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        try {
            for (int w = 0; w < policy.workers(); w++) {
                BatchExecutor executor = executors.create();
                made.add(executor);
                Thread worker = new Thread(() -> serve(executor), "inferbench-worker-" + w);
                worker.setDaemon(true);
                workers.add(worker);
            }
            workers.forEach(Thread::start);
            long startNs = System.nanoTime() + 1_000_000;
            for (int i = 0; i < intendedOffsetsNs.length; i++) {
                Request request = new Request(i, startNs + intendedOffsetsNs[i], mix == null ? -1 : mix[i]);
                waitUntil(request.intendedNs);
                request.sentNs = System.nanoTime();
                requests.add(request);
                lock.lock();
                try {
                    queue.addLast(request);
                    changed.signal();
                } finally {
                    lock.unlock();
                }
            }
            lock.lock();
            try {
                sending = false;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            long deadline = System.nanoTime() + drainLimitNs;
            for (Thread worker : workers) {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } finally {
            workers.forEach(Thread::interrupt);
            for (Thread worker : workers) {
                worker.join(10_000);
            }
            made.forEach(BatchExecutor::close);
        }
        for (Request request : requests) {
            if (request.doneNs == 0 && request.error == null) {
                request.error = "not completed within the drain limit of " + TimeUnit.NANOSECONDS.toMillis(drainLimitNs)
                        + " ms after the last send: the model could not keep up with the arrival rate";
            }
        }
        return requests;
    }

    /** Parks until shortly before {@code targetNs}, then spins: sends land within tens of microseconds of their time. */
    static void waitUntil(long targetNs) {
        long left;
        while ((left = targetNs - System.nanoTime()) > SPIN_NS) {
            LockSupport.parkNanos(left - SPIN_NS);
        }
        while (System.nanoTime() < targetNs) {
            Thread.onSpinWait();
        }
    }

    private void serve(BatchExecutor executor) {
        try {
            while (true) {
                long readyNs = System.nanoTime();
                List<Request> batch = takeBatch();
                if (batch == null) {
                    return;
                }
                for (Request r : batch) {
                    r.workerReadyNs = readyNs;
                }
                Batches.execute(executor, batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The next batch by the policy, or null once the generator is done and the queue is empty. A batch starts when it
     * is full, when its oldest request has waited the policy's max wait, or when no more requests will come.
     */
    List<Request> takeBatch() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                if (queue.isEmpty()) {
                    if (!sending) {
                        return null;
                    }
                    changed.await();
                    continue;
                }
                long waitLeft = queue.peekFirst().sentNs + policy.maxWaitNs() - System.nanoTime();
                if (queue.size() >= policy.maxBatch() || waitLeft <= 0 || !sending) {
                    List<Request> batch = new ArrayList<>(Math.min(queue.size(), policy.maxBatch()));
                    while (!queue.isEmpty() && batch.size() < policy.maxBatch()) {
                        batch.add(queue.pollFirst());
                    }
                    if (!queue.isEmpty()) {
                        changed.signal();
                    }
                    return batch;
                }
                changed.awaitNanos(waitLeft);
            }
        } finally {
            lock.unlock();
        }
    }
}
