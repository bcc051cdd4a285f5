package io.inferbench.measure;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stop rule, driven pass by pass with synthetic latencies and a fake clock. */
class StopRuleTest {
    private static final long MS = 1_000_000L;

    private record Result(MeasureEnd end, long passes, long elapsedNs, MedianInterval interval, Histogram histogram) {
    }

    /** Records passes drawn by {@code passNs} until the rule stops. */
    private static Result drive(StopPolicy policy, java.util.function.LongSupplier passNs) {
        StopRule rule = new StopRule(policy);
        Histogram h = PassRecorder.newHistogram();
        long elapsed = 0;
        while (true) {
            long pass = passNs.getAsLong();
            h.recordValue(pass);
            elapsed += pass;
            MeasureEnd end = rule.afterPass(h, elapsed);
            if (end != null) {
                return new Result(end, h.getTotalCount(), elapsed, rule.interval(), h);
            }
        }
    }

    /** Uniform passes in [base, base * (1 + spread)), seeded. */
    private static java.util.function.LongSupplier uniform(long baseNs, double spread, long seed) {
        Random random = new Random(seed);
        return () -> baseNs + (long) (random.nextDouble() * spread * baseNs);
    }

    @Test
    void stopsOnceTheP50IsPreciseAndNotBefore() {
        StopPolicy policy = new StopPolicy(null, 0.02, 0.95, 2, 0, 60_000);
        Result r = drive(policy, uniform(MS, 0.5, 12345));
        assertEquals(MeasureEnd.PRECISE, r.end());
        MedianInterval atStop = MedianInterval.of(r.histogram(), 0.95);
        assertTrue(atStop.halfWidth() <= 0.02, "precise at the stop: " + atStop.halfWidth());
        // A uniform spread of 50% needs a few hundred passes for ±2%; at a quarter of them the interval is far wider.
        assertTrue(r.passes() > 100, "stopped after " + r.passes() + " passes");
        Histogram quarter = PassRecorder.newHistogram();
        Random replay = new Random(12345);
        for (long i = 0; i < r.passes() / 4; i++) {
            quarter.recordValue(MS + (long) (replay.nextDouble() * 0.5 * MS));
        }
        assertTrue(MedianInterval.of(quarter, 0.95).halfWidth() > 0.02);
    }

    @Test
    void stopsAtTheFirstCheckWhereThePassesArePrecise() {
        // The interval is computed when the count has grown by 5%: replay the same passes on that schedule, by hand.
        StopPolicy policy = new StopPolicy(null, 0.02, 0.95, 2, 0, 60_000);
        Result r = drive(policy, uniform(MS, 0.5, 777));
        Random replay = new Random(777);
        Histogram h = PassRecorder.newHistogram();
        long check = 6;
        long expected = -1;
        for (long n = 1; expected < 0; n++) {
            h.recordValue(MS + (long) (replay.nextDouble() * 0.5 * MS));
            if (n == check) {
                if (MedianInterval.of(h, 0.95).halfWidth() <= 0.02) {
                    expected = n;
                }
                check = Math.max(n + 1, (long) Math.ceil(n * StopRule.CHECK_GROWTH));
            }
        }
        assertEquals(expected, r.passes());
    }

    @Test
    void theMinimumPassesHoldEvenWhenPreciseEarlier() {
        // Identical passes are precise at once; p99 resolution asks for 100 per fork.
        StopPolicy p99 = new StopPolicy(null, 0.02, 0.95, 100, 0, 60_000);
        Result r = drive(p99, () -> MS);
        assertEquals(MeasureEnd.PRECISE, r.end());
        assertEquals(100, r.passes());
        StopPolicy p50 = new StopPolicy(null, 0.02, 0.95, 2, 0, 60_000);
        assertEquals(6, drive(p50, () -> MS).passes(), "the fewest passes with a 95% interval");
    }

    @Test
    void theMinimumTimeHolds() {
        StopPolicy policy = new StopPolicy(null, 0.02, 0.95, 2, 200, 60_000);
        Result r = drive(policy, () -> MS);
        assertEquals(MeasureEnd.PRECISE, r.end());
        assertEquals(200, r.passes(), "200 ms of 1 ms passes");
    }

    @Test
    void theCapStopsANoisyCellAndRecordsThePrecisionItReached() {
        StopPolicy policy = new StopPolicy(null, 0.001, 0.95, 2, 0, 500);
        Result r = drive(policy, uniform(MS, 2.0, 99));
        assertEquals(MeasureEnd.TIME_CAP, r.end());
        assertTrue(r.elapsedNs() >= 500 * MS && r.elapsedNs() < 504 * MS, r.elapsedNs() / MS + " ms");
        assertTrue(r.interval() != null && r.interval().halfWidth() > 0.001);
        assertEquals(MedianInterval.of(r.histogram(), 0.95), r.interval(), "the interval at the stop itself");
    }

    @Test
    void aFixedCountIsAPlainCount() {
        StopPolicy fixed = new StopPolicy(40, 0.02, 0.95, 100, 10_000, 10);
        Result r = drive(fixed, () -> MS);
        assertEquals(MeasureEnd.FIXED_COUNT, r.end());
        assertEquals(40, r.passes(), "neither the minimums nor the cap apply to a fixed count");
    }
}
