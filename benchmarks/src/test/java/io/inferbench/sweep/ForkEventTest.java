package io.inferbench.sweep;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fork's event lines: written on a line of their own, read back even behind JMH's unfinished line. */
class ForkEventTest {
    @Test
    void anEventRoundTripsAndStartsALineOfItsOwn() {
        ForkEvent done = ForkEvent.done("onnxruntime/cpu/tiny/seq64/batch1", 120, "steady", 3000, "precise", 0.4, 0.25, 0.41, 98.5, 1.5);
        String line = done.line();
        assertTrue(line.startsWith(System.lineSeparator() + ForkEvent.PREFIX), line);
        assertEquals(done, ForkEvent.parse(line.strip()));
    }

    @Test
    void anEventBehindJmhsUnfinishedLineIsStillRead() {
        // JMH prints "Iteration   1: " and the score after the benchmark's tear-down reports its event.
        ForkEvent start = ForkEvent.start("djl/cpu/tiny/seq512/batch8");
        assertEquals(start, ForkEvent.parse("Iteration   1: " + start.line().strip()));
    }

    @Test
    void ordinaryOutputIsNoEvent() {
        assertNull(ForkEvent.parse("# JMH version: 1.37"));
        assertNull(ForkEvent.parse(ForkEvent.PREFIX + "{not json"));
    }
}
