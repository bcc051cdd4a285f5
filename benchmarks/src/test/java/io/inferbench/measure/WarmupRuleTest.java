package io.inferbench.measure;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The warm-up rule, driven pass by pass with a fake clock and a fake JIT counter. Each test makes one of its
 * conditions the one that decides, so that deleting that condition from the rule fails that test.
 */
class WarmupRuleTest {
    private static final long MS = 1_000_000L;

    /** Windows of at least 2 passes and 50 ms, 5% tolerance, JIT under 5% of a window, 100 ms to 5 s. */
    private static final WarmupPolicy POLICY = new WarmupPolicy(null, 0.05, 50, 2, 0.05, 100, 5000);

    /** Feeds passes of {@code passMs(i)} until the rule ends, with the JIT's total given by {@code compileMs(elapsed)}. */
    private static Result drive(WarmupPolicy policy, java.util.function.IntToDoubleFunction passMs,
                                java.util.function.LongUnaryOperator compileMs) {
        WarmupRule rule = new WarmupRule(policy);
        long elapsed = 0;
        for (int i = 0; i < 1_000_000; i++) {
            long pass = Math.round(passMs.applyAsDouble(i) * MS);
            elapsed += pass;
            WarmupEnd end = rule.afterPass(pass, elapsed, compileMs.applyAsLong(elapsed));
            if (end != null) {
                return new Result(end, i + 1, elapsed);
            }
        }
        throw new AssertionError("never ended");
    }

    private record Result(WarmupEnd end, int passes, long elapsedNs) {
    }

    @Test
    void steadyPassesEndAfterTwoWindowsAndTheMinimumTime() {
        Result r = drive(POLICY, i -> 10.0, t -> 0);
        assertEquals(WarmupEnd.STEADY, r.end());
        // 10 ms passes: windows close at 5 passes (50 ms); two windows are 100 ms, which is also the minimum time.
        assertEquals(10, r.passes());
    }

    @Test
    void latencyStillFallingKeepsWarmingUp() {
        // 20 ms falling by 10% per pass until pass 40, then flat at the value reached: a transient the rule must wait out.
        double floor = 20 * Math.pow(0.9, 40);
        Result r = drive(POLICY, i -> i < 40 ? 20 * Math.pow(0.9, i) : floor, t -> 0);
        assertEquals(WarmupEnd.STEADY, r.end());
        assertTrue(r.passes() > 40, "ended at pass " + r.passes() + ", while latency was still falling");
    }

    @Test
    void aSlowerWindowIsNotAWarmUpTransient() {
        // 10 ms, then 12 ms: slower is noise or drift, which the measurement must see, not a reason to keep warming up.
        Result r = drive(POLICY, i -> i < 5 ? 10.0 : 12.0, t -> 0);
        assertEquals(WarmupEnd.STEADY, r.end());
        assertEquals(10, r.passes());
    }

    @Test
    void aFasterWindowWithinTheToleranceIsSteady() {
        // 9.6 ms passes: the second window needs 6 of them to last 50 ms.
        Result r = drive(POLICY, i -> i < 5 ? 10.0 : 9.6, t -> 0);
        assertEquals(11, r.passes(), "4% faster is within 5%");
        Result faster = drive(POLICY, i -> i < 5 ? 10.0 : 9.0, t -> 0);
        assertEquals(17, faster.passes(), "10% faster is not: one more window of 6, then 9.0 against 9.0");
    }

    @Test
    void aBusyJitKeepsWarmingUpUntilItIsQuiet() {
        // The JIT compiles 10 ms in every 50 ms (20% of the window) until 1 s, then stops.
        Result r = drive(POLICY, i -> 10.0, t -> Math.min(t, 1000 * MS) / (5 * MS));
        assertEquals(WarmupEnd.STEADY, r.end());
        assertTrue(r.elapsedNs() > 1000 * MS, "ended at " + r.elapsedNs() / MS + " ms, while the JIT was still busy");
        assertTrue(r.elapsedNs() <= 1100 * MS, "and soon after it quieted: " + r.elapsedNs() / MS + " ms");
    }

    @Test
    void anUnknownJitCountsAsQuiet() {
        assertEquals(10, drive(POLICY, i -> 10.0, t -> -1).passes());
    }

    @Test
    void theMinimumTimeHoldsEvenWhenWindowsAgree() {
        WarmupPolicy longer = new WarmupPolicy(null, 0.05, 50, 2, 0.05, 400, 5000);
        Result r = drive(longer, i -> 10.0, t -> 0);
        assertEquals(40, r.passes(), "400 ms of 10 ms passes");
    }

    @Test
    void theCapEndsAWarmUpThatNeverSettles() {
        // The JIT compiles 20% of the time, forever: never quiet.
        Result r = drive(POLICY, i -> 10.0, t -> t / (5 * MS));
        assertEquals(WarmupEnd.TIME_CAP, r.end());
        assertEquals(500, r.passes(), "capped at 5 s of 10 ms passes");
    }

    @Test
    void windowsHoldAtLeastTheirMinimumPasses() {
        // 200 ms passes: each window is 2 passes, since one alone would be 50 ms long.
        Result r = drive(POLICY, i -> 200.0, t -> 0);
        assertEquals(4, r.passes());
    }

    @Test
    void aFixedCountIsAPlainCount() {
        WarmupPolicy fixed = new WarmupPolicy(7, 0.05, 50, 2, 0.05, 100, 5000);
        Result r = drive(fixed, i -> 1000.0 / (i + 1), t -> t);
        assertEquals(WarmupEnd.FIXED_COUNT, r.end());
        assertEquals(7, r.passes());
        WarmupRule none = new WarmupRule(new WarmupPolicy(0, 0.05, 50, 2, 0.05, 100, 5000));
        assertEquals(WarmupEnd.FIXED_COUNT, none.end(), "a count of 0 ends before any pass");
        assertThrows(IllegalStateException.class, () -> none.afterPass(MS, MS, 0));
    }

    @Test
    void goesOnWhileNoWindowHasClosed() {
        WarmupRule rule = new WarmupRule(POLICY);
        assertNull(rule.afterPass(10 * MS, 10 * MS, 0));
        assertEquals(0, rule.windows());
    }
}
