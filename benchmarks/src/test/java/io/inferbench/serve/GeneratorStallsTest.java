package io.inferbench.serve;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generator's stalls, as a measured run holds them, and replayed on a forecast's arrivals. */
class GeneratorStallsTest {
    private static final long MS = 1_000_000;

    /**
     * Ten requests meant 1 ms apart, from 1 s on the clock; those meant at 3 and 4 ms were both sent at 5.5 ms, the one
     * at 7 ms 1.2 ms late: two stalls, [3, 5.5) and [7, 8.2) ms, in a period of 10 ms (the span and one gap). The one at
     * 1 ms, 0.3 ms late, is not a late send (over 1 ms): a parked thread's usual wake-up, no stall.
     */
    private static List<Request> measured() {
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Request r = new Request(i, 1_000 * MS + i * MS);
            r.sentNs = r.intendedNs + (i == 3 ? 2_500_000 : i == 4 ? 1_500_000 : i == 7 ? 1_200_000 : i == 1 ? 300_000 : 0);
            requests.add(r);
        }
        return requests;
    }

    @Test
    void lateSendsMarkTheGeneratorStalledFromWhenTheyWereMeantUntilTheyWereSent() {
        GeneratorStalls stalls = GeneratorStalls.of(measured());
        assertEquals(2, stalls.count());
        assertEquals(10 * MS, stalls.periodNs());
        assertEquals(100.0 * (2.5 + 1.2) / 10, stalls.stalledPercent(), 1e-9);
        assertEquals(2.5, stalls.longestMs(), 1e-9);
        assertNull(GeneratorStalls.of(measured().subList(0, 1)), "one request has no period to repeat");
    }

    /**
     * Replayed on arrivals 10 µs apart over 100 periods: the share of requests held is the stalled share, each held one
     * leaves when its stall ends (so the requests of one stall leave together, in order), and none is held longer than
     * its stall.
     */
    @Test
    void aForecastsArrivalsAreHeldUntilTheStallTheyFallInEnds() {
        GeneratorStalls stalls = GeneratorStalls.of(measured());
        long[] intended = new long[100_000];
        for (int i = 0; i < intended.length; i++) {
            intended[i] = i * 10_000L;
        }
        long[] sent = stalls.sendTimes(intended, 42);
        int held = 0;
        for (int i = 0; i < sent.length; i++) {
            long lag = sent[i] - intended[i];
            assertTrue(lag >= 0 && lag <= 2_500_000, "request " + i + " held " + lag + " ns");
            if (i > 0) {
                assertTrue(sent[i] >= sent[i - 1], "sent in order");
            }
            if (lag > 0) {
                held++;
                // Held until the stall's end: the next request meant before that end leaves with it.
                if (i + 1 < sent.length && intended[i + 1] < sent[i]) {
                    assertEquals(sent[i], sent[i + 1], "requests of one stall leave together");
                }
            }
        }
        assertEquals(0.37, held / (double) sent.length, 0.001);
        assertEquals(stalls.sendTimes(intended, 42)[12_345], sent[12_345], "the same seed, the same phase");
    }

    /**
     * One worker, 1 ms passes, two requests a second at random: no queue. Without stalls every request takes 1 ms; with the
     * measured ones, those meant for a stall wait it out, counted from when they were meant: up to 2.5 + 1 ms (a
     * request right behind one may queue for a pass more, rarely).
     */
    @Test
    void theSimulatorCountsAStalledRequestFromWhenItWasMeantToBeSent() {
        QueueSimulator plain = new QueueSimulator(QueueSimulatorTest.constantServiceTimes(MS), 1);
        long[] arrivals = Arrivals.POISSON.schedule(2, 5_000, 11);
        QueueSimulator.Outcome without = plain.simulate(arrivals, ServingPolicy.unbatched(1), 1);
        QueueSimulator.Outcome with = plain.withStalls(GeneratorStalls.of(measured()))
                .simulate(arrivals, ServingPolicy.unbatched(1), 1);
        assertEquals(1.0, without.percentileMs(99), 0.01);
        assertEquals(1.0, with.percentileMs(50), 0.01, "63% of the time the generator sends when meant");
        assertTrue(with.percentileMs(99) > 2.5 && with.percentileMs(99) <= 3.51, "p99 " + with.percentileMs(99));
        assertEquals(plain.withStalls(GeneratorStalls.of(measured())).scaled(2).stalls().count(), 2,
                "a scaled forecast keeps its stalls");
    }
}
