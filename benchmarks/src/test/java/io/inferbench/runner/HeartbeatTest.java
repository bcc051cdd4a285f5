package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sign of life the sweep's silence limit listens for: it comes while the JVM lives, and stops when closed. */
class HeartbeatTest {
    @Test
    void itBeatsWhileOpenAndStopsWhenClosed() throws Exception {
        AtomicInteger beats = new AtomicInteger();
        try (Heartbeat ignored = new Heartbeat(beats::incrementAndGet, 50)) {
            long end = System.nanoTime() + 5_000_000_000L;
            while (beats.get() < 3 && System.nanoTime() < end) {
                Thread.sleep(20);
            }
        }
        assertTrue(beats.get() >= 3, "beats: " + beats.get());
        Thread.sleep(100);
        int after = beats.get();
        Thread.sleep(300);
        assertEquals(after, beats.get(), "no beat after close");
    }
}
