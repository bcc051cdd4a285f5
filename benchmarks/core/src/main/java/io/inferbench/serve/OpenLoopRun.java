package io.inferbench.serve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Open-loop load: a generator thread sends each request at its intended time, whatever the model is doing, into a
 * queue that {@link ServingPolicy#workers()} worker threads serve, each forming batches by the policy.
 *
 * <p>The generator keeps the schedule, so requests pile up behind a stall and each one's latency counts from when it
 * was meant to be sent (no coordinated omission: docs/serving.md). It parks until shortly before each intended time and
 * spins the rest ({@link Pacer}); a send stamps its time under the queue's lock, where it really enters the queue, and
 * a point with more than 1% of its sends over 1 ms late is marked not paced.
 *
 * <p><b>Nothing is lost.</b> After the last send, the workers drain the queue for up to {@code drainLimitNs}; whatever
 * is still unfinished then is failed, so sent = completed + failed in every case.
 *
 * <p><b>Workers.</b> A batch that throws fails its requests, and the worker serves on. A worker that dies (an
 * {@link Error} out of the engine) fails its batch and every request it leaves unserved with its cause, so nothing is
 * blamed on the rate. At the end the workers are interrupted and joined without a time limit: a worker inside a
 * native forward pass cannot be stopped, and closing its executor under it would free memory the engine is using. A
 * worker still busy is reported every {@value #STUCK_REPORT_SECONDS} s while the run waits.
 */
public final class OpenLoopRun {
    static final long STUCK_REPORT_SECONDS = 10;

    private final ServingPolicy policy;
    private final BatchExecutor.Factory executors;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    private boolean sending = true;
    private final java.util.concurrent.atomic.AtomicReference<String> workerDeath = new java.util.concurrent.atomic.AtomicReference<>();
    private final Pacer pacer = new Pacer();
    private final long stuckReportMs;

    public OpenLoopRun(ServingPolicy policy, BatchExecutor.Factory executors) {
        this(policy, executors, TimeUnit.SECONDS.toMillis(STUCK_REPORT_SECONDS));
    }

    /** As {@link #OpenLoopRun(ServingPolicy, BatchExecutor.Factory)}, saying every {@code stuckReportMs} that a worker is still busy. */
    OpenLoopRun(ServingPolicy policy, BatchExecutor.Factory executors, long stuckReportMs) {
        this.policy = policy;
        this.executors = executors;
        this.stuckReportMs = stuckReportMs;
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
        long drainDeadlineNs = 0;
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
                pacer.waitUntil(request.intendedNs);
                requests.add(request);
                lock.lock();
                try {
                    request.sentNs = System.nanoTime();
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
            drainDeadlineNs = System.nanoTime() + drainLimitNs;
            for (Thread worker : workers) {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(drainDeadlineNs - System.nanoTime())));
            }
        } finally {
            workers.forEach(Thread::interrupt);
            joinAll(workers, stuckReportMs);
            made.forEach(BatchExecutor::close);
        }
        String death = workerDeath.get();
        for (Request request : requests) {
            if (request.doneNs == 0 && request.error == null) {
                if (death != null) {
                    request.error = "not served: " + death;
                } else {
                    request.cutOffNs = drainDeadlineNs;
                    request.error = "not completed within the drain limit of " + TimeUnit.NANOSECONDS.toMillis(drainLimitNs)
                            + " ms after the last send: the model could not keep up with the arrival rate";
                }
            }
        }
        return requests;
    }

    /**
     * Joins every worker however long it takes: one inside a native pass cannot be interrupted, and its executor must
     * not be closed under it. Says so every {@value #STUCK_REPORT_SECONDS} s while one is still busy.
     */
    static void joinAll(List<Thread> workers) {
        joinAll(workers, TimeUnit.SECONDS.toMillis(STUCK_REPORT_SECONDS));
    }

    private static void joinAll(List<Thread> workers, long reportEveryMs) {
        boolean interrupted = false;
        for (Thread worker : workers) {
            while (worker.isAlive()) {
                try {
                    worker.join(reportEveryMs);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                if (worker.isAlive()) {
                    System.err.println("[inferbench] " + worker.getName() + " is still inside a pass; waiting for it to "
                            + "end before its executor is closed");
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
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
        } catch (Throwable t) {
            workerDeath.compareAndSet(null, Thread.currentThread().getName() + " died: " + t);
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
                long oldestNs = queue.peekFirst().sentNs;
                long nowNs = System.nanoTime();
                if (policy.startsBatch(queue.size(), oldestNs, nowNs, sending)) {
                    List<Request> batch = new ArrayList<>(Math.min(queue.size(), policy.maxBatch()));
                    while (!queue.isEmpty() && batch.size() < policy.maxBatch()) {
                        batch.add(queue.pollFirst());
                    }
                    if (!queue.isEmpty()) {
                        changed.signal();
                    }
                    return batch;
                }
                changed.awaitNanos(policy.holdEndsNs(oldestNs) - nowNs);
            }
        } finally {
            lock.unlock();
        }
    }
}
