package io.inferbench.roofline;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.probe.StreamArrays;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * This machine's memory roof, measured by the harness itself rather than through an engine: a STREAM-style in-place add,
 * {@code b[i] += c[i]}, over two float arrays together several times the last-level cache ({@link StreamArrays}), split
 * over the run's threads, so that every pass streams from memory, not a cache.
 *
 * <p><b>Why its traffic is exact.</b> In place, each element of {@code b} and {@code c} is read once and {@code b} written
 * once per pass: 3 x 4 bytes an element. The store goes to a line the same iteration has just read, so no line is read
 * twice (no write-allocate), and nothing is allocated per pass: the arrays are made once, each thread's part by that
 * thread (so its pages are its own), before any pass.
 *
 * <p><b>How it is timed.</b> A pass is from releasing every thread to the last of them finishing its part (a barrier), so
 * it is the machine's, not one thread's. The loop is a method of its own, compiled by the JIT on a small array before
 * the first timed pass (a loop compiled on the stack runs slower). {@value #ROUNDS} rounds of passes, each at least
 * {@value #MIN_PASSES} and about {@code seconds / ROUNDS} long; the figure is the best round's median: a roof is what the
 * machine sustains, and a busy moment costs one round, not the figure.
 *
 * <p>How it compares with a C loop of the same kernel, measured: docs/roofline.md.
 */
public final class MachineBandwidth {
    /** The smallest arrays the roof is measured over, where the heap has no room for {@link StreamArrays#arrayBytes()}. */
    static final long MIN_ARRAY_BYTES = 64L << 20;
    static final int ROUNDS = 3;
    static final int MIN_PASSES = 3;
    private static final long BYTES_PER_ELEMENT = 3L * Float.BYTES;

    private MachineBandwidth() {
    }

    /**
     * The roof.
     *
     * @param bytesPerSecond the best round's median, 12 bytes an element a pass
     * @param arrayBytes     each of the two arrays
     * @param llcBytes       the last-level cache as the machine reports it ({@code /sys/devices/system/cpu}), or the
     *                       default where it does not
     * @param method         the kernel, the sizes and the convention, in words
     */
    public record Roof(double bytesPerSecond, long arrayBytes, long llcBytes, int threads, String method) {
    }

    /** Measures the roof with {@code threads} threads, about {@code seconds} of passes in all. */
    public static Roof measure(int threads, double seconds) {
        long llc = StreamArrays.lastLevelCacheBytes();
        long wanted = StreamArrays.arrayBytes();
        // Both arrays live on the heap: at most half of what it may still grow to, so the measure never runs it out.
        long room = (Runtime.getRuntime().maxMemory() - (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory())) / 4;
        long arrayBytes = Math.min(wanted, room) / (Float.BYTES * 1024L * threads) * (Float.BYTES * 1024L * threads);
        if (arrayBytes < MIN_ARRAY_BYTES) {
            throw new BenchmarkException(Text.f("Too little heap to measure the machine's memory roof: arrays of at least %d MiB "
                    + "are needed, the heap has room for %d MiB. Give the run's JVM more heap (-Xmx)", MIN_ARRAY_BYTES >> 20,
                    room >> 20));
        }
        int perThread = (int) (arrayBytes / Float.BYTES / threads);
        double[] roundMedians = new double[ROUNDS];
        try (Team team = new Team(threads, perThread)) {
            warmUpLoop();
            team.pass(); // the first pass touches nothing new, but lets the threads reach the loop once
            for (int round = 0; round < ROUNDS; round++) {
                roundMedians[round] = medianPassSeconds(team, seconds / ROUNDS);
            }
        }
        double best = Arrays.stream(roundMedians).min().orElseThrow();
        double bytes = (double) BYTES_PER_ELEMENT * perThread * threads;
        String capped = arrayBytes < wanted ? Text.f(" (the heap held only these: %d MiB each were wanted, together %dx the "
                + "cache; the roof may be partly the cache's)", wanted >> 20, StreamArrays.LLC_MULTIPLE) : "";
        String method = Text.f("in-place b[i] += c[i] over two float arrays of %d MiB each%s on the Java heap, %d thread(s) each "
                        + "adding its own part (made and first touched by that thread), a pass timed from releasing the threads "
                        + "to the last one done; counted as 12 bytes an element (read b, read c, write b: in place, so no "
                        + "write-allocate read); last-level cache %d MiB; %d rounds, the best round's median (per round %s GB/s)",
                arrayBytes >> 20, capped, threads, llc >> 20, ROUNDS, String.join(", ", Arrays.stream(roundMedians)
                        .mapToObj(s -> Text.f("%.1f", bytes / s / 1e9)).toList()));
        return new Roof(bytes / best, arrayBytes, llc, threads, method);
    }

    private static double medianPassSeconds(Team team, double seconds) {
        List<Long> passes = new ArrayList<>();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (passes.size() < MIN_PASSES || System.nanoTime() < end) {
            passes.add(team.pass());
        }
        passes.sort(Long::compare);
        return passes.get(passes.size() / 2) / 1e9;
    }

    /** The kernel: each element read and written in place. A method of its own, so the JIT compiles the loop whole. */
    static void add(float[] b, float[] c) {
        for (int i = 0; i < b.length; i++) {
            b[i] += c[i];
        }
    }

    /** Enough calls on a small array for the JIT to compile {@link #add} before a pass is timed. */
    private static void warmUpLoop() {
        float[] b = new float[4096];
        float[] c = new float[4096];
        for (int i = 0; i < 20_000; i++) {
            add(b, c);
        }
    }

    /** The threads, each with its own part of both arrays, started once and released for each pass. */
    private static final class Team implements AutoCloseable {
        private final CyclicBarrier start;
        private final CyclicBarrier done;
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stop;

        Team(int count, int elementsPerThread) {
            start = new CyclicBarrier(count + 1);
            done = new CyclicBarrier(count + 1);
            for (int t = 0; t < count; t++) {
                Thread thread = new Thread(() -> {
                    float[] b = new float[elementsPerThread];
                    float[] c = new float[elementsPerThread];
                    Arrays.fill(c, 1e-7f);
                    try {
                        done.await();
                        while (true) {
                            start.await();
                            if (stop) {
                                return;
                            }
                            add(b, c);
                            done.await();
                        }
                    } catch (InterruptedException | BrokenBarrierException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "inferbench-bandwidth-" + t);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
            await(done); // every thread has made and touched its part
        }

        /** One pass, in nanoseconds. */
        long pass() {
            long startNs = System.nanoTime();
            await(start);
            await(done);
            return System.nanoTime() - startNs;
        }

        private static void await(CyclicBarrier barrier) {
            try {
                barrier.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while measuring the memory roof", e);
            } catch (BrokenBarrierException e) {
                throw new IllegalStateException("a thread of the memory roof's measure stopped", e);
            }
        }

        @Override
        public void close() {
            stop = true;
            try {
                start.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (BrokenBarrierException e) {
                // a thread already stopped: nothing more to release
            }
            for (Thread thread : threads) {
                try {
                    thread.join(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
