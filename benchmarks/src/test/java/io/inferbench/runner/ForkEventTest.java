package io.inferbench.runner;

import io.inferbench.measure.MeasureEnd;
import io.inferbench.measure.WarmupEnd;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fork's event lines: written on a line of their own, read back even behind JMH's unfinished line. */
class ForkEventTest {
    @Test
    void everyKindOfEventRoundTripsAsItsOwnTypeAndStartsALineOfItsOwn() {
        List<ForkEvent> events = List.of(new ForkEvent.Ready(1_700_000_000_000L, 12.5, 80.25, 64.0),
                new ForkEvent.OpenFailed("no such device"), new ForkEvent.CellStarted("onnxruntime/cpu/tiny/seq64/batch1"),
                new ForkEvent.CellDone("onnxruntime/cpu/tiny/seq64/batch1", 120, WarmupEnd.STEADY, 3000, MeasureEnd.PRECISE,
                        0.4, 0.25, 0.41, 98.5, 1.5, java.util.Map.of("ttft", 1.5, "step", 0.25)),
                new ForkEvent.CellFailed("onnxruntime/cpu/tiny/seq64/batch1", "simulated"));
        for (ForkEvent event : events) {
            String line = event.line();
            assertTrue(line.startsWith(System.lineSeparator() + ForkEvent.PREFIX), line);
            assertEquals(event, ForkEvent.parse(line.strip()));
        }
        assertTrue(events.get(3).line().contains("\"type\":\"done\"") && events.get(3).line().contains("\"stop\":\"precise\""),
                "the kind and the stop by name: " + events.get(3).line());
    }

    @Test
    void anEventBehindJmhsUnfinishedLineIsStillRead() {
        // JMH prints "Iteration   1: " and the score after the benchmark's tear-down reports its event.
        ForkEvent start = new ForkEvent.CellStarted("djl/cpu/tiny/seq512/batch8");
        assertEquals(start, ForkEvent.parse("Iteration   1: " + start.line().strip()));
    }

    @Test
    void ordinaryOutputIsNoEvent() {
        assertNull(ForkEvent.parse("# JMH version: 1.37"));
        assertNull(ForkEvent.parse(ForkEvent.PREFIX + "{not json"));
    }
}
