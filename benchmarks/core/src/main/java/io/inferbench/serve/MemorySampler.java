package io.inferbench.serve;

import io.inferbench.probe.MemoryUse;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the process's memory every {@code periodNs} on a thread of its own while a soak runs: the resident set from
 * {@code /proc/self/status}, the heap after the last collection, and the JVM's direct buffers. Nothing here forces a
 * collection or touches the requests, so the load pays only for a daemon thread that wakes a few times a window.
 */
final class MemorySampler implements AutoCloseable {
    /** One reading, at {@code System.nanoTime} {@code atNs}; a value is null where it cannot be read. */
    record Reading(long atNs, Double rssMb, Double heapAfterGcMb, Double directMb) {
    }

    /** Where the readings come from; the tests give a fake. */
    interface Source {
        Reading read(long atNs);
    }

    private static final double BYTES_PER_MB = 1024.0 * 1024.0;

    private final Source probe;
    private final long periodNs;
    private final List<Reading> readings = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    private MemorySampler(Source probe, long periodNs) {
        this.probe = probe;
        this.periodNs = periodNs;
        this.thread = new Thread(this::loop, "inferbench-memory-sampler");
        this.thread.setDaemon(true);
    }

    static MemorySampler start(Source probe, long periodNs) {
        MemorySampler sampler = new MemorySampler(probe, periodNs);
        sampler.thread.start();
        return sampler;
    }

    /** The process's own memory: {@code /proc/self/status}'s VmRSS, the heap pools' collection usage, direct buffers. */
    static Source process() {
        MemoryUse.Reader proc = MemoryUse.Reader.self();
        return atNs -> {
            double rss = proc.rssMb();
            long heap = 0;
            boolean anyHeap = false;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                MemoryUsage afterGc = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
                if (afterGc != null) {
                    heap += afterGc.getUsed();
                    anyHeap = true;
                }
            }
            Double direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                    .filter(b -> b.getName().equals("direct")).findFirst().map(b -> b.getMemoryUsed() / BYTES_PER_MB).orElse(null);
            return new Reading(atNs, Double.isNaN(rss) ? null : rss, anyHeap ? heap / BYTES_PER_MB : null, direct);
        };
    }

    private void loop() {
        long next = System.nanoTime();
        while (running) {
            Reading reading = probe.read(System.nanoTime());
            synchronized (readings) {
                readings.add(reading);
            }
            next += periodNs;
            long sleepNs = next - System.nanoTime();
            if (sleepNs > 0) {
                try {
                    Thread.sleep(sleepNs / 1_000_000, (int) (sleepNs % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** The last reading taken at or before {@code atNs}, or null when none was. */
    Reading lastAtOrBefore(long atNs) {
        synchronized (readings) {
            Reading found = null;
            for (Reading r : readings) {
                if (r.atNs() <= atNs) {
                    found = r;
                }
            }
            return found;
        }
    }

    /** Takes one last reading, so the last window has one at its end, and stops. Idempotent. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Reading last = probe.read(System.nanoTime());
        synchronized (readings) {
            readings.add(last);
        }
    }
}
