package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JVM's watch on the process that started it: a fork's on the sweep, the sweep's on Maven. */
class ParentWatchTest {
    @Test
    void aParentThatEndsIsSeenOnceWithItsPid() throws Exception {
        Process parent = new ProcessBuilder("sleep", "0.3").start();
        AtomicLong seen = new AtomicLong();
        CountDownLatch gone = new CountDownLatch(1);
        try (ParentWatch ignored = ParentWatch.start(parent.pid(), pid -> {
            seen.set(pid);
            gone.countDown();
        })) {
            assertTrue(gone.await(10, TimeUnit.SECONDS), "the parent's end was seen");
        }
        assertEquals(parent.pid(), seen.get());
    }

    @Test
    void aLiveParentIsLeftAloneAndNothingIsSaidAfterClose() throws Exception {
        Process parent = new ProcessBuilder("sleep", "30").start();
        CountDownLatch gone = new CountDownLatch(1);
        try {
            try (ParentWatch watch = ParentWatch.start(parent.pid(), pid -> gone.countDown())) {
                assertFalse(gone.await(3 * ParentWatch.CHECK_MS, TimeUnit.MILLISECONDS), "a live parent is not gone");
                watch.close();
            }
            parent.destroyForcibly().waitFor();
            assertFalse(gone.await(3 * ParentWatch.CHECK_MS, TimeUnit.MILLISECONDS), "closed: its parent's end is not reported");
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    void noParentMeansNoWatch() {
        assertNull(ParentWatch.start(-1, pid -> { }));
        assertNull(ParentWatch.start(0, pid -> { }));
    }
}
