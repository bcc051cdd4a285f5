package io.inferbench.serve;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Closed-loop load at a fixed concurrency: {@code clients} threads, each sending its next request as soon as the
 * previous one returned, for a fixed time. A request is intended to start when its client is ready to send it, so its
 * latency runs from send to result; there is no queue, each client has its own executor on the shared model.
 */
public final class ClosedLoopRun {
    /**
     * How long past the end a client may take to finish its last request before it is interrupted. A client inside a
     * native pass still finishes it: its executor is closed only after ({@link OpenLoopRun#joinAll}).
     */
    static final long GRACE_MS = 10_000;
    private final int clients;
    private final BatchExecutor.Factory executors;

    public ClosedLoopRun(int clients, BatchExecutor.Factory executors) {
        this.clients = clients;
        this.executors = executors;
    }

    public List<Request> run(double seconds) throws InterruptedException {
        return run(seconds, null);
    }

    /** As {@link #run(double)}, the clients taking the workload's requests {@code mix} in turn (null: no workload). */
    public List<Request> run(double seconds, int[] mix) throws InterruptedException {
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        List<List<Request>> perClient = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<BatchExecutor> made = new ArrayList<>();
        long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.round(seconds * 1000));
        try {
            for (int c = 0; c < clients; c++) {
                BatchExecutor executor = executors.create();
                made.add(executor);
                List<Request> mine = new ArrayList<>();
                perClient.add(mine);
                Thread client = new Thread(() -> {
                    int i = 0;
                    while (System.nanoTime() < endNs && !Thread.currentThread().isInterrupted()) {
                        long now = System.nanoTime();
                        Request request = new Request(i++, now, mix == null ? -1 : mix[next.getAndIncrement() % mix.length]);
                        request.sentNs = now;
                        mine.add(request);
                        Batches.execute(executor, List.of(request));
                    }
                }, "inferbench-client-" + c);
                client.setDaemon(true);
                threads.add(client);
            }
            threads.forEach(Thread::start);
            for (Thread client : threads) {
                client.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(endNs - System.nanoTime()) + GRACE_MS));
            }
        } finally {
            threads.forEach(Thread::interrupt);
            OpenLoopRun.joinAll(threads);
            made.forEach(BatchExecutor::close);
        }
        List<Request> all = new ArrayList<>();
        perClient.forEach(all::addAll);
        return all;
    }
}
