package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 54: a call that never returns fails its cell as timed out, with where it was; one that keeps making progress
 * is never cut short, however long the cell. The handler records instead of halting here; the heartbeat and the watch
 * on the parent are {@link HeartbeatTest}'s and {@link ParentWatchTest}'s.
 */
class CallWatchdogTest {
    private static final class Recording implements CallWatchdog.Handler {
        final AtomicReference<CallWatchdog.Timeout> timeout = new AtomicReference<>();
        final CountDownLatch fired = new CountDownLatch(1);

        @Override
        public void timedOut(CallWatchdog.Timeout t) {
            timeout.set(t);
            fired.countDown();
        }
    }

    /** A stuck call (a sleep that ignores nothing, here) is reported once the limit passes, naming its frame. */
    @Test
    void aCallWithoutProgressTimesOutWithWhereItWas() throws Exception {
        Recording handler = new Recording();
        CountDownLatch release = new CountDownLatch(1);
        try (CallWatchdog watchdog = new CallWatchdog(1, handler)) {
            Thread stuck = new Thread(() -> {
                watchdog.begin("the unit of cell X");
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            stuck.start();
            assertTrue(handler.fired.await(10, TimeUnit.SECONDS), "the watchdog fired");
            release.countDown();
            stuck.join();
        }
        CallWatchdog.Timeout timeout = handler.timeout.get();
        assertEquals("the unit of cell X", timeout.activity());
        assertTrue(timeout.message().startsWith("timed out after 1 s: the unit of cell X did not return"), timeout.message());
        assertTrue(timeout.message().contains("-Dbench.callTimeoutSeconds"), "the fix: " + timeout.message());
        assertFalse(timeout.where().isEmpty(), "where the stuck thread was");
    }

    /**
     * Progress restarts the clock: a cell of many quick units runs for longer than the limit without firing. Deleting
     * {@code progress()} from the unit's end (CellTrial) would fail cells this way.
     */
    @Test
    void progressKeepsALongCellAlive() throws Exception {
        Recording handler = new Recording();
        try (CallWatchdog watchdog = new CallWatchdog(1, handler)) {
            watchdog.begin("the unit of cell Y");
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1800);
            while (System.nanoTime() < end) {
                Thread.sleep(100);
                watchdog.progress();
            }
            watchdog.end();
            assertFalse(handler.fired.await(1000, TimeUnit.MILLISECONDS), "no timeout for a call that keeps returning");
        }
        assertNull(handler.timeout.get());
    }

    /** Nothing is watched between pieces of work: a fork idle between cells never times out. */
    @Test
    void nothingBegunIsNeverTimedOut() throws Exception {
        Recording handler = new Recording();
        try (CallWatchdog ignored = new CallWatchdog(0.5, handler)) {
            assertFalse(handler.fired.await(1500, TimeUnit.MILLISECONDS));
        }
    }

    /**
     * A call that did not return while the heap was full and the collector took most of the time is out of memory, not
     * stuck: G1 collects on rather than throw, and a 4 GiB heap thrashed past a 5 s limit before throwing.
     */
    @Test
    void aTimeoutOnAFullThrashingHeapIsSaidAsOutOfMemory() {
        assertTrue(new CallWatchdog.HeapPressure(97, 4, 85).outOfMemory());
        assertFalse(new CallWatchdog.HeapPressure(97, 4, 10).outOfMemory(), "full but quiet: a stuck call");
        assertFalse(new CallWatchdog.HeapPressure(40, 4, 85).outOfMemory(), "collecting, with room: a stuck call");
        String said = new CallWatchdog.Timeout("the unit of X", 5, "", new CallWatchdog.HeapPressure(97, 4, 85)).message();
        assertTrue(said.startsWith("out of memory in the fork JVM: the unit of X did not return within 5 s while the heap was "
                + "97% full (of 4.0 GiB) and the JVM spent 85% of that time collecting garbage"), said);
        assertTrue(said.contains("-Dbench.jvmArgs=-Xmx16g"), said);
    }
}
