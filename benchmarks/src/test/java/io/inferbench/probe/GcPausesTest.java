package io.inferbench.probe;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JVM's collections, as notified, summed over a stretch of time. */
class GcPausesTest {
    @Test
    void aSummaryCountsSumsAndKeepsTheLongestOfEachKind() {
        GcPauses.Summary s = GcPauses.summarize(List.of(
                new GcPauses.Collection("G1 Young Generation", "end of minor GC", "G1 Evacuation Pause", 100, 9),
                new GcPauses.Collection("G1 Young Generation", "end of minor GC", "G1 Evacuation Pause", 900, 16),
                new GcPauses.Collection("G1 Old Generation", "end of major GC", "System.gc()", 1500, 40)));
        assertEquals(3, s.collections());
        assertEquals(65, s.totalMs(), 1e-12);
        assertEquals(40, s.maxMs(), 1e-12);
        assertEquals(List.of("G1 Young Generation: end of minor GC (G1 Evacuation Pause) x2",
                "G1 Old Generation: end of major GC (System.gc()) x1"), s.kinds());
    }

    /**
     * A collection counts in a stretch only when it started and ended inside it: one that straddles an edge is not. The
     * notifications' clock is mapped by the quickest arrival: here each arrives 1 ms after it ended but the second,
     * which arrives at once, so the clocks are 0 apart.
     */
    @Test
    void aStretchHoldsTheCollectionsThatStartedAndEndedInIt() {
        GcPauses pauses = new GcPauses(false);
        long ms = 1_000_000L;
        pauses.record(new GcPauses.Collection("young", "end of minor GC", "test", 10, 5), 16 * ms);
        pauses.record(new GcPauses.Collection("young", "end of minor GC", "test", 98, 5), 103 * ms);
        pauses.record(new GcPauses.Collection("young", "end of minor GC", "test", 200, 7), 208 * ms);
        GcPauses.Summary s = pauses.between(0, 100 * ms);
        assertEquals(1, s.collections());
        assertEquals(5, s.maxMs(), 1e-12);
        assertEquals(3, pauses.between(0, 300 * ms).collections());
        assertEquals(1, pauses.between(150 * ms, 300 * ms).collections());
    }

    /** HotSpot notifies every collection: a System.gc() between two readings shows up between them. */
    @Test
    void aCollectionInThisJvmIsSeen() throws InterruptedException {
        GcPauses pauses = GcPauses.instance();
        assertTrue(pauses.listening(), "HotSpot's collectors send notifications");
        // 2 ms early: the notifications' clock counts whole milliseconds, so a collection that starts at once may map
        // up to a millisecond before the moment it was asked for.
        long from = System.nanoTime() - 2_000_000;
        System.gc();
        GcPauses.Summary s = pauses.between(from, System.nanoTime());
        for (int i = 0; i < 50 && s.collections() == 0; i++) {
            Thread.sleep(100); // notifications arrive on the JVM's service thread, shortly after the collection
            s = pauses.between(from, System.nanoTime());
        }
        assertTrue(s.collections() >= 1, "System.gc() was not seen: " + s);
        assertTrue(s.kinds().stream().anyMatch(k -> k.contains("System.gc()")), s.kinds().toString());
    }
}
