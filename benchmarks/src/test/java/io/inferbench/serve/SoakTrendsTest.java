package io.inferbench.serve;

import io.inferbench.results.SoakResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The soak's verdicts from its windows: a trend is called only when it is both significant and above its floor. */
class SoakTrendsTest {
    /** Windows of 10 s: p50 and resident set per window from the given functions of the window's index. */
    private static List<SoakResult.Window> windows(int n, java.util.function.IntToDoubleFunction p50,
                                                   java.util.function.IntToDoubleFunction rss, double heap) {
        List<SoakResult.Window> windows = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            windows.add(new SoakResult.Window(k, 10.0 * k, 1000, 1000, 0, 0, p50.applyAsDouble(k), 2.0, 5.0, 100,
                    rss.applyAsDouble(k), heap, 0.0, null));
        }
        return windows;
    }

    @Test
    void aSlowingServiceDriftsAndALeakGrowsNamingNativeMemory() {
        // p50 from 1 ms, +0.02 ms per 10 s window: 0.12 ms a minute; RSS +2 MiB per window: 12 MiB per minute, heap flat.
        List<SoakResult.Window> w = windows(12, k -> 1 + 0.02 * k, k -> 500 + 2 * k, 40);
        SoakResult.LatencyTrend latency = SoakTrends.latency(w, 10);
        SoakResult.MemoryTrend memory = SoakTrends.memory(w, 10);
        assertEquals(SoakTrends.DRIFTING, latency.verdict(), latency.reason());
        assertEquals(100 * 0.12 / 1.11, latency.percentPerMinute(), 1e-9, "0.12 ms a minute over the median p50 of 1.11 ms");
        assertEquals(SoakTrends.GROWING, memory.verdict(), memory.reason());
        assertEquals(12, memory.mbPerMinute(), 1e-9);
        assertTrue(memory.reason().contains("native memory"), memory.reason());
        assertEquals(500, memory.firstMb());
        assertEquals(522, memory.lastMb());
    }

    /** Noise without a trend is stable, and so is a real trend under the floor (a few pages of an arena). */
    @Test
    void noiseAndACreepUnderTheFloorAreStable() {
        Random random = new Random(12345);
        double[] noise = random.doubles(12).toArray();
        List<SoakResult.Window> w = windows(12, k -> 1 + 0.02 * noise[k], k -> 500 + 0.05 * k, 40);
        SoakResult.LatencyTrend latency = SoakTrends.latency(w, 10);
        SoakResult.MemoryTrend memory = SoakTrends.memory(w, 10);
        assertEquals(SoakTrends.STABLE, latency.verdict(), latency.reason());
        assertEquals(SoakTrends.STABLE, memory.verdict(), memory.reason());
        assertTrue(memory.reason().contains("under the 1 MiB/min floor"), memory.reason());
        assertTrue(latency.reason().contains("no trend found") || latency.reason().contains("under the"), latency.reason());
        assertTrue(memory.reason().endsWith("under the 1 MiB/min floor"), "its interval lies within the floor: " + memory.reason());
    }

    /** Not called, but with an interval reaching past the floor: the reading says what the soak cannot rule out. */
    @Test
    void aWideIntervalSaysWhatItCannotRuleOut() {
        String said = SoakTrends.notRuledOut(false, -2.04, 191.73, 5, "%/min");
        assertTrue(said.contains("+191.73%/min, past the floor, is not ruled out"), said);
        assertEquals("", SoakTrends.notRuledOut(false, -1, 2, 5, "%/min"), "within the floor");
        assertEquals("", SoakTrends.notRuledOut(true, 10, 20, 5, "%/min"), "a called trend says its own rate");
    }

    @Test
    void fewerThanFiveWindowsAreNotEstimated() {
        List<SoakResult.Window> w = windows(4, k -> 1 + k, k -> 500 + 100 * k, 40);
        assertEquals(SoakTrends.NOT_ESTIMATED, SoakTrends.latency(w, 10).verdict());
        assertEquals(SoakTrends.NOT_ESTIMATED, SoakTrends.memory(w, 10).verdict());
        assertTrue(SoakTrends.memory(w, 10).reason().contains("-Dbench.soakWindowSeconds"));
    }
}
