package io.inferbench.serve;

import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A seeded discrete-event simulation of the live serving loop, to predict its percentiles from the sweep alone: the
 * same arrival schedule ({@link Arrivals}, same seed), the same policy ({@link ServingPolicy}: workers, max batch, max
 * wait), and each batch's pass drawn from the sweep's measured passes at that batch size ({@link ServiceTimes}).
 *
 * <p>Concurrent passes share the cores: a pass that starts while other workers are in theirs is stretched by the
 * threads they all need over the cores there are ({@link #stretch}), fixed for its whole length (an approximation: a
 * pass does not speed up when another ends). What it leaves out, and so what a gap between prediction and measurement
 * points at: the threads' wake-up and scheduling delays, and the generator's and batcher's own share of the cores.
 *
 * <p>The rule is the live batcher's, asked of the same {@link ServingPolicy#startsBatch}: a free worker takes a batch as
 * soon as {@code maxBatch} requests wait, or the oldest has waited {@code maxWait}, or no more will arrive; otherwise it
 * waits for whichever comes first.
 */
public final class QueueSimulator {
    private final ServiceTimes serviceTimes;
    private final java.util.Map<Integer, ServiceTimes> bySeq;
    private final int rowsPerRequest;

    /** Every request at one shape: the sweep's passes at the serving sequence length. */
    public QueueSimulator(ServiceTimes serviceTimes, int rowsPerRequest) {
        this(serviceTimes, java.util.Map.of(), rowsPerRequest);
    }

    /**
     * Requests of mixed lengths: a batch's pass is drawn from the sweep's passes at the sequence length its longest member
     * is padded to ({@code bySeq}); {@code serviceTimes} is for requests without one.
     */
    public QueueSimulator(ServiceTimes serviceTimes, java.util.Map<Integer, ServiceTimes> bySeq, int rowsPerRequest) {
        this(serviceTimes, bySeq, rowsPerRequest, 0, 0);
    }

    /**
     * As above, with the cores the workers' passes share: a pass that starts while {@code b} other workers are in a pass
     * takes {@code max(1, (b + 1) * threadsPerPass / cores)} times its drawn time, as {@code b + 1} passes of
     * {@code threadsPerPass} engine threads each share {@code cores} cores (the drawn times were measured one pass at a
     * time). {@code cores = 0}: no sharing is modelled (a device such as a GPU, which this does not model).
     */
    public QueueSimulator(ServiceTimes serviceTimes, java.util.Map<Integer, ServiceTimes> bySeq, int rowsPerRequest,
                          int cores, int threadsPerPass) {
        this(serviceTimes, bySeq, rowsPerRequest, cores, threadsPerPass, null);
    }

    private QueueSimulator(ServiceTimes serviceTimes, java.util.Map<Integer, ServiceTimes> bySeq, int rowsPerRequest,
                           int cores, int threadsPerPass, GeneratorStalls stalls) {
        this.serviceTimes = serviceTimes;
        this.bySeq = java.util.Map.copyOf(bySeq);
        this.rowsPerRequest = rowsPerRequest;
        this.cores = cores;
        this.threadsPerPass = threadsPerPass;
        this.stalls = stalls;
    }

    private final int cores;
    private final int threadsPerPass;
    /** When the generator could not send, replayed on every simulated point's arrivals; null: sent when meant. */
    private final GeneratorStalls stalls;

    /** How much longer a pass takes when {@code othersBusy} other passes share the cores with it. */
    double stretch(int othersBusy) {
        if (cores <= 0 || threadsPerPass <= 0) {
            return 1;
        }
        return Math.max(1, (othersBusy + 1) * threadsPerPass / (double) cores);
    }

    /** The same simulation with every service time multiplied by {@code factor} ({@link ServiceTimes#scaled}). */
    public QueueSimulator scaled(double factor) {
        return withTimes(times -> times.scaled(factor), cores, threadsPerPass);
    }

    /**
     * The same simulation with passes as a measured point served them ({@link ServiceTimes#servedAs}), and no sharing of
     * cores modelled: the served passes already ran beside each other, so stretching them again would count it twice.
     */
    public QueueSimulator servedAs(double[] servedOverMedian) {
        return withTimes(times -> times.servedAs(servedOverMedian), 0, 0);
    }

    /**
     * As {@link #servedAs}, with each pass taking the ratio of the served batch running when it starts
     * ({@link ServiceTimes#servedInTime}): a replay that keeps the point's slow spells where they were.
     */
    public QueueSimulator servedInTime(long[] startsNs, double[] ratios) {
        return withTimes(times -> times.servedInTime(startsNs, ratios), 0, 0);
    }

    /**
     * The same simulation with the load generator's stalls as a measured run saw them ({@link GeneratorStalls}): each
     * simulated point's requests enter the queue when the stalls let them, their latency counted from when they were
     * meant to. What the live points hold and the engine's passes do not: the generator shares the cores.
     */
    QueueSimulator withStalls(GeneratorStalls measured) {
        return new QueueSimulator(serviceTimes, bySeq, rowsPerRequest, cores, threadsPerPass, measured);
    }

    /** The generator's stalls this simulation replays; null when none. */
    GeneratorStalls stalls() {
        return stalls;
    }

    /** This simulation with every bucket's service times mapped by {@code change}, and the cores' sharing given. */
    private QueueSimulator withTimes(java.util.function.UnaryOperator<ServiceTimes> change, int cores, int threadsPerPass) {
        java.util.Map<Integer, ServiceTimes> changed = new java.util.TreeMap<>();
        bySeq.forEach((seq, times) -> changed.put(seq, change.apply(times)));
        return new QueueSimulator(change.apply(serviceTimes), changed, rowsPerRequest, cores, threadsPerPass, stalls);
    }

    /** The service times of a batch whose longest member pads to {@code seq} (0: requests without a workload). */
    ServiceTimes timesAt(int seq) {
        return seq == 0 ? serviceTimes : bySeq.getOrDefault(seq, serviceTimes);
    }

    int rowsPerRequest() {
        return rowsPerRequest;
    }

    public ServiceTimes serviceTimes() {
        return serviceTimes;
    }

    /** The service times per bucket, for requests of mixed lengths. */
    java.util.Map<Integer, ServiceTimes> bySeq() {
        return bySeq;
    }

    /**
     * The simulated outcome: latency (result minus arrival) and queue wait histograms in nanoseconds, batches, and the
     * CPU time the simulation took.
     */
    public record Outcome(Histogram latencyNs, Histogram waitNs, long requests, long batches, double meanWaitNs,
                          double cpuMs) {
        public double meanBatchSize() {
            return batches == 0 ? 0 : requests / (double) batches;
        }

        public double percentileMs(double p) {
            return latencyNs.getValueAtPercentile(p) / 1e6;
        }
    }

    public Outcome simulate(long[] arrivalsNs, ServingPolicy policy, long seed) {
        return simulate(arrivalsNs, policy, seed, null);
    }

    /**
     * @param arrivalsNs when each request is meant to be sent; with {@link #withStalls}, it enters the queue when the
     *                   stalls let the generator send it, and counts from this
     * @param requestSeq each request's padded length on its own (its bucket), or null when all share one shape
     */
    public Outcome simulate(long[] arrivalsNs, ServingPolicy policy, long seed, int[] requestSeq) {
        // The stalls' phase from a seed of its own, apart from the passes' draws.
        long[] sent = stalls == null ? arrivalsNs : stalls.sendTimes(arrivalsNs, seed ^ 0x5DEECE66DL);
        return simulate(sent, policy, seed, requestSeq, arrivalsNs);
    }

    /**
     * As above, each request's latency counted from {@code countFromNs[i]} instead of its arrival: for replaying a
     * measured point, where requests entered the queue when the generator sent them ({@code arrivalsNs}) but count from
     * when they were meant to be sent. Sorted arrivals, one count-from time per arrival. The arrivals are taken as sent:
     * no stalls are replayed on them.
     */
    public Outcome simulate(long[] arrivalsNs, ServingPolicy policy, long seed, int[] requestSeq, long[] countFromNs) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        Histogram latency = PassRecorder.newHistogram();
        Histogram waits = PassRecorder.newHistogram();
        PriorityQueue<Long> freeAt = new PriorityQueue<>();
        for (int w = 0; w < policy.workers(); w++) {
            freeAt.add(0L);
        }
        int n = arrivalsNs.length;
        int head = 0;
        long batches = 0;
        double waitSum = 0;
        while (head < n) {
            long workerFree = freeAt.poll();
            long t = Math.max(workerFree, arrivalsNs[head]);
            // Requests [head, tail) are waiting at time t. The policy decides at each arrival and when the oldest's hold
            // runs out, as the live batcher wakes for both.
            int tail = arrivedBy(arrivalsNs, head, t);
            while (!policy.startsBatch(tail - head, arrivalsNs[head], t, tail < n)) {
                t = Math.min(policy.holdEndsNs(arrivalsNs[head]), arrivalsNs[tail]);
                tail = arrivedBy(arrivalsNs, tail, t);
            }
            long start = t;
            int size = Math.min(policy.maxBatch(), tail - head);
            ServiceTimes times = serviceTimes;
            if (requestSeq != null) {
                int seq = 0;
                for (int i = head; i < head + size; i++) {
                    seq = Math.max(seq, requestSeq[i]);
                }
                times = bySeq.getOrDefault(seq, serviceTimes);
            }
            int othersBusy = 0;
            for (long busyUntil : freeAt) {
                if (busyUntil > start) {
                    othersBusy++;
                }
            }
            long done = start + Math.round(times.sample(size * rowsPerRequest, random, start) * stretch(othersBusy));
            for (int i = head; i < head + size; i++) {
                latency.recordValue(Math.max(1, done - countFromNs[i]));
                long wait = start - arrivalsNs[i];
                waits.recordValue(Math.max(1, wait));
                waitSum += wait;
            }
            head += size;
            batches++;
            freeAt.add(done);
        }
        long cpuEnd = threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
        return new Outcome(latency, waits, n, batches, n == 0 ? 0 : waitSum / n, (cpuEnd - cpuStart) / 1e6);
    }

    /** The index after the last of {@code arrivalsNs} (sorted) from {@code from} on that arrived by {@code tNs}. */
    private static int arrivedBy(long[] arrivalsNs, int from, long tNs) {
        int tail = from;
        while (tail < arrivalsNs.length && arrivalsNs[tail] <= tNs) {
            tail++;
        }
        return tail;
    }
}
