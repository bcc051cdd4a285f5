package io.inferbench.probe;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory that grows with a cell's calls is flagged, by documented bounds over the measured passes alone: a leak of direct
 * buffers, or a resident set that grows past what a JVM's first touches of its heap explain; a working set allocated in
 * the warm-up, or a modest growth, is not.
 */
class MemoryUseTest {
    private static MemoryUse use(double rssAtMeasureMb, double rssEndMb, double directStartMb, double directEndMb) {
        return new MemoryUse(300, rssEndMb, rssEndMb, MemoryUse.SINCE_CELL, 100, 200,
                new MemoryUse.Measured(rssAtMeasureMb, directStartMb, directEndMb));
    }

    @Test
    void leakingDirectBuffersAreFlaggedWithTheFigures() {
        String why = use(600, 900, 10, 306).growing();
        assertTrue(why != null && why.startsWith("direct buffers grew by 296 MiB over the measured passes (from 10 to 306 MiB"),
                why);
    }

    @Test
    void aResidentSetThatGrowsPastTheBoundIsFlaggedAndASteadyOneIsNot() {
        assertTrue(use(600, 1300, 10, 10).growing().startsWith("the resident set grew by 700 MiB"));
        assertNull(use(600, 700, 10, 20).growing(), "100 MiB of first heap touches, 10 MiB of direct buffers: steady");
        assertNull(use(3000, 3600, 10, 10).growing(), "600 MiB on a 3 GiB process is less than half its start");
        assertNull(new MemoryUse(300, 2000, 2000, MemoryUse.SINCE_CELL, 100, 200, null).growing(),
                "not read over the measured passes alone: no verdict");
    }

    @Test
    void directBuffersAreReadFromTheJvm() {
        double before = MemoryUse.directMb();
        List<ByteBuffer> kept = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            kept.add(ByteBuffer.allocateDirect(1 << 20));
        }
        assertTrue(MemoryUse.directMb() >= before + 7.9, before + " -> " + MemoryUse.directMb() + " with " + kept.size());
    }
}
