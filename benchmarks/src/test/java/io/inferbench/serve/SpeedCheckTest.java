package io.inferbench.serve;

import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The speed check against the sweep's passes, and the forecast scaled by it. */
class SpeedCheckTest {
    private static final long MS = 1_000_000;

    private static Histogram constant(long ns) {
        Histogram h = PassRecorder.newHistogram();
        h.recordValueWithCount(ns, 50);
        return h;
    }

    /** The sweep: 1 ms at one row, 1.5 ms at two, 2.5 ms at four. */
    private static QueueSimulator sweep() {
        return new QueueSimulator(new ServiceTimes(Map.of(1, constant(MS), 2, constant(3 * MS / 2), 4, constant(5 * MS / 2))), 1);
    }

    /**
     * Re-timed at 1.2 ms (one request), 1.65 ms (two: x1.1) and 3.5 ms (four: x1.4): the ratios 1.2, 1.1 and 1.4 have the
     * median 1.2. A shape that failed voids the check: a partial check would scale by the shapes that happened to work.
     */
    @Test
    void theRatioIsTheMedianOverShapesOfReTimedOverTheSweep() {
        Map<Integer, Histogram> byRequests = new TreeMap<>(Map.of(1, constant(12 * MS / 10), 2, constant(165 * MS / 100),
                4, constant(35 * MS / 10)));
        ServingWarmup.Result timed = new ServingWarmup.Result(List.of(), Map.of(0, byRequests));
        // Within 1e-3: histograms keep 3 significant digits.
        assertEquals(1.2, SpeedCheck.ratio(timed, sweep()), 1e-3);
        assertNull(SpeedCheck.ratio(new ServingWarmup.Result(List.of("Shape[requests=4]: boom"), Map.of(0, byRequests)), sweep()));
        assertNull(SpeedCheck.ratio(new ServingWarmup.Result(List.of(), Map.of()), sweep()));
    }

    /** Scaled, every quantile of every size moves by the factor: the spread is kept, unlike a draw of one ratio. */
    @Test
    void aScaledForecastKeepsTheSpread() {
        Histogram spread = PassRecorder.newHistogram();
        spread.recordValueWithCount(MS, 90);
        spread.recordValueWithCount(5 * MS, 10);
        ServiceTimes times = new ServiceTimes(Map.of(1, spread, 2, constant(2 * MS)));
        ServiceTimes scaled = times.scaled(1.5);
        assertEquals(1.5 * MS, scaled.quantile(1, 0.5), 0.002 * MS);
        assertEquals(7.5 * MS, scaled.quantile(1, 0.99), 0.01 * MS);
        assertEquals(3.0 * MS, scaled.quantile(2, 0.5), 0.005 * MS);
        SplittableRandom random = new SplittableRandom(5);
        long max = 0;
        for (int i = 0; i < 1000; i++) {
            max = Math.max(max, scaled.sample(1, random));
        }
        assertEquals(7.5 * MS, max, 0.01 * MS);
    }
}
