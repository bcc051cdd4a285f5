package io.inferbench.serve;

import io.inferbench.results.SoakResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soak against engines that go wrong the way real ones do, with the process's real memory readings: one that leaks
 * native memory on every request (what an unclosed {@code OnnxTensor} does) must read {@code growing}, one whose passes
 * get slower must read {@code drifting}.
 */
class SoakRunTest {
    /** The leaked native buffers, kept reachable until the test ends so the JVM cannot free them. */
    private static final List<ByteBuffer> LEAKED = new ArrayList<>();

    @AfterEach
    void release() {
        synchronized (LEAKED) {
            LEAKED.clear();
        }
    }

    /**
     * A pass of a fixed 0.2 ms that keeps 48 MiB of native memory every 100th request: 100 requests/s leak 2.8 GiB/min.
     * One large block rather than a small one per request: glibc serves blocks under its mmap threshold (which rises to
     * 32 MiB after large frees) from memory earlier tests freed and kept resident, so small leaks could read flat; a
     * block above it is always fresh pages.
     */
    private static final class LeakingExecutor implements BatchExecutor {
        private static final int LEAK_EVERY = 100;
        private int size;
        private int requests;

        @Override
        public void prepare(List<Request> batch) {
            size = batch.size();
        }

        @Override
        public void forward() {
            spin(200_000);
            synchronized (LEAKED) {
                for (int i = 0; i < size; i++) {
                    if (++requests % LEAK_EVERY == 0) {
                        // allocateDirect zeroes the memory it takes, so its pages are resident, outside the heap.
                        LEAKED.add(ByteBuffer.allocateDirect(48 << 20));
                    }
                }
            }
        }

        @Override
        public void fetch(List<Request> batch) {
        }

        @Override
        public void close() {
        }
    }

    /**
     * A pass that starts at 0.2 ms and takes 1 ms longer every second of the soak, as a fragmenting allocator would: 6.2
     * ms by the last window, under the 10 ms between arrivals. A step of 1 ms a window stands out of what a busy machine
     * adds (four loops beside the test read a first window slower than the next with 0.15 ms a second).
     */
    private static final class SlowingExecutor implements BatchExecutor {
        /** When the soak's first call came, shared by every worker's executor: 0 before it. */
        private final AtomicLong startNs;

        SlowingExecutor(AtomicLong startNs) {
            this.startNs = startNs;
        }

        @Override
        public void prepare(List<Request> batch) {
        }

        @Override
        public void forward() {
            // From the first call, not from the test's start: the collection and set-up before the soak take seconds
            // on a busy machine, and a clock started before them made the first window already slow.
            startNs.compareAndSet(0, System.nanoTime());
            double seconds = (System.nanoTime() - startNs.get()) / 1e9;
            spin(200_000 + Math.round(1_000_000 * seconds));
        }

        @Override
        public void fetch(List<Request> batch) {
        }

        @Override
        public void close() {
        }
    }

    private static void spin(long ns) {
        long until = System.nanoTime() + ns;
        while (until - System.nanoTime() > 100_000) {
            LockSupport.parkNanos(until - System.nanoTime() - 100_000);
        }
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    /** Six windows of 1 s at 100 requests/s, uniform arrivals. */
    private static SoakResult soak(BatchExecutor.Factory executors) throws InterruptedException {
        // Earlier tests' large heaps are given back now, not while the soak reads the resident set (which would cancel
        // the leak's growth).
        System.gc();
        long[] schedule = Arrivals.UNIFORM.schedule(100, 6, 12345);
        return new SoakRun(executors, MemorySampler.process(), null).run(new SoakRun.Target("fake", "cpu", "fake"),
                ServingPolicy.unbatched(1), 100, "test", schedule, null, 6, 1.0, List.of());
    }

    @Test
    void aNativeLeakReadsGrowingWhileTheHeapStaysFlat() throws InterruptedException {
        SoakResult soak = soak(LeakingExecutor::new);

        assertEquals(6, soak.windows().size());
        assertEquals(soak.sent(), soak.completed(), "the fake never fails");
        SoakResult.MemoryTrend memory = soak.memoryTrend();
        assertEquals(SoakTrends.GROWING, memory.verdict(), memory.reason());
        assertTrue(memory.mbPerMinute() > 500, "48 MiB a second are 2,880 MiB a minute: " + memory.reason());
        assertTrue(memory.reason().contains("native memory"), "the heap stayed flat: " + memory.reason());
        assertTrue(memory.lastMb() - memory.firstMb() > 50, memory.firstMb() + " -> " + memory.lastMb());
        SoakResult.Window last = soak.windows().get(5);
        assertTrue(last.directMb() > 50, "the JVM's direct buffers hold the leak: " + last.directMb());
        assertNull(last.gpuMemoryMb(), "no GPU on the CPU");
    }

    @Test
    void aServiceThatSlowsReadsDrifting() throws InterruptedException {
        AtomicLong start = new AtomicLong();
        SoakResult soak = soak(() -> new SlowingExecutor(start));

        SoakResult.LatencyTrend latency = soak.latencyTrend();
        assertEquals(SoakTrends.DRIFTING, latency.verdict(), latency.reason());
        assertTrue(latency.percentPerMinute() > 100, "0.2 ms growing by 1 ms a second: " + latency.reason());
        assertTrue(latency.lastMs() > latency.firstMs() * 2, latency.firstMs() + " -> " + latency.lastMs());
        for (SoakResult.Window w : soak.windows()) {
            assertNotNull(w.p50Ms());
            assertEquals(0, w.errors());
            assertTrue(w.rps() > 80 && w.rps() < 120, "window " + w.index() + ": " + w.rps() + " requests/s");
        }
    }
}
