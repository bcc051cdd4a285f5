package io.inferbench.probe;

import io.inferbench.measure.CellLoop;
import io.inferbench.measure.MeasureOutcome;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.NanoClock;
import io.inferbench.measure.PassRecorder;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A probe is found through its service file, read around a window, and its figures land under its name. */
class PageFaultsTest {
    @Test
    void theFaultCountsAreReadAfterTheCommandNameWhateverItHolds() {
        String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 1234 0 56 0 10 2 0 0 20 0 30 0 100 1000 200";
        assertArrayEquals(new long[] {1234, 56}, PageFaults.read(stat));
        assertNull(PageFaults.read("4242 (java) S 1 2"), "too few fields");
        assertNull(PageFaults.read(null));
    }

    @Test
    void theServiceFileRegistersIt() {
        assertTrue(Probe.all().stream().anyMatch(p -> p instanceof PageFaults), "META-INF/services/io.inferbench.probe.Probe");
    }

    @Test
    void touchingFreshMemoryInAWindowCountsMinorFaultsPerPass() {
        PageFaults probe = new PageFaults();
        Object start = probe.start();
        ByteBuffer fresh = ByteBuffer.allocateDirect(32 * 1024 * 1024);
        for (int i = 0; i < fresh.capacity(); i += 4096) {
            fresh.put(i, (byte) 1);
        }
        ProbeReading read = probe.stop(start, new Probe.Window(0, 10_000_000, 4, 1, 1));
        assertNull(read.unavailable(), read.unavailable());
        assertTrue(read.figures().get("minorFaults") >= 1, "32 MiB touched for the first time faults in: " + read.figures());
        assertEquals(read.figures().get("minorFaults") / 4, read.figures().get("minorFaultsPerPass"), 1e-9);
    }

    @Test
    void aMeasurementRecordsEachProbeUnderItsName() {
        PassRecorder recorder = new PassRecorder(NanoClock.SYSTEM);
        MeasurePolicy policy = new MeasurePolicy(WarmupPolicy.untilSteady(0.05, 100), new StopPolicy(20, 0.02, 0.95, 2, 0, 1000));
        CellLoop loop = new CellLoop(recorder, policy, NanoClock.SYSTEM, () -> -1, List.of(new PageFaults()), 1, 1);
        MeasureOutcome outcome = loop.measure(() -> 0L);
        assertNotNull(outcome.probes(), "the probes' readings");
        ProbeReading read = outcome.probes().get("pageFaults");
        assertNotNull(read.figures().get("minorFaultsPerPass"), read.toString());
    }
}
