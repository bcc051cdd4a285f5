package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rule that says which of a cell's forks departed from their siblings. */
class ForkDepartureTest {
    private static final List<Integer> ROUNDS = List.of(1, 2, 3);

    private static List<ForkDeparture.Departure> find(List<Double> p50s, Double... halfWidths) {
        List<Double> widths = halfWidths.length == 0 ? Arrays.asList(2.0, 2.0, 2.0) : Arrays.asList(halfWidths);
        return ForkDeparture.find(ROUNDS.subList(0, p50s.size()), p50s, widths.subList(0, p50s.size()), 1.5);
    }

    @Test
    void aSlowJvmDepartsAndItsSiblingsDoNot() {
        // The measured case: one late DJL JVM at 168.7 ms where the other rounds read 61.9 and 72.2 ms.
        List<ForkDeparture.Departure> departed = find(List.of(61.9, 72.2, 168.7));
        assertEquals(1, departed.size());
        assertEquals(3, departed.get(0).round());
        assertEquals(72.2, departed.get(0).siblingsP50Ms(), 1e-12, "the median of the three, its own p50 included");
        assertEquals(168.7 / 72.2, departed.get(0).ratio(), 1e-12);
    }

    @Test
    void aFastForkDepartsToo() {
        List<ForkDeparture.Departure> departed = find(List.of(10.0, 30.0, 31.0));
        assertEquals(1, departed.size());
        assertEquals(1, departed.get(0).round());
        assertTrue(departed.get(0).ratio() < 1);
    }

    @Test
    void theSpreadOfGoodForksIsKept() {
        // 1.45x apart, as good forks were on the build machine: under the factor, nothing departs.
        assertTrue(find(List.of(10.0, 12.0, 14.5)).isEmpty());
        assertTrue(find(List.of(10.0, 10.0, 14.9)).isEmpty());
        assertEquals(1, find(List.of(10.0, 10.0, 15.1)).size());
    }

    @Test
    void aForkWhoseOwnIntervalReachesItsSiblingsIsKept() {
        // 1.6x its siblings' median, but measured to +-40%: the median lies inside its own interval.
        assertTrue(find(List.of(10.0, 10.0, 16.0), 2.0, 2.0, 40.0).isEmpty());
        assertEquals(1, find(List.of(10.0, 10.0, 16.0), 2.0, 2.0, 30.0).size());
        assertEquals(1, find(List.of(10.0, 10.0, 16.0), null, null, null).size(), "a fixed count: the factor alone");
    }

    @Test
    void twoForksCannotTellWhichDeparted() {
        assertTrue(find(List.of(10.0, 40.0)).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> ForkDeparture.find(ROUNDS, List.of(1.0, 1.0, 1.0),
                Arrays.asList(2.0, 2.0, 2.0), 1.0));
    }

    @Test
    void aFreshJvmThatAgreesWithTheDepartedForkConfirmsIt() {
        // Measured: two slow DJL JVMs of three; the normal fork (14.7 ms) departed as fast and a fresh JVM read 16.0 ms.
        assertTrue(ForkDeparture.confirmed(14.7, 16.0, List.of(31.0, 32.2), 1.5));
        assertFalse(ForkDeparture.confirmed(14.7, 30.0, List.of(31.0, 32.2), 1.5), "the fresh JVM sided with the siblings");
        assertTrue(ForkDeparture.confirmed(3.0, 2.9, List.of(1.0, 1.1), 1.5), "on the slow side as well");
        assertFalse(ForkDeparture.confirmed(3.0, 0.3, List.of(1.0, 1.1), 1.5), "beyond the factor, but on the other side");
        assertFalse(ForkDeparture.confirmed(3.0, 2.9, List.of(), 1.5), "no siblings left to doubt");
        assertFalse(ForkDeparture.confirmed(3.0, Double.NaN, List.of(1.0, 1.1), 1.5), "no fresh measurement");
    }

    @Test
    void onlyAFastDepartureThatAFreshJvmConfirmsPutsItsSiblingsInDoubt() {
        assertTrue(ForkDeparture.siblingsInDoubt(14.7, 16.0, List.of(31.0, 32.2), 1.5), "two slow JVMs of three");
        // Measured: DJL seq 256 batch 8 read 24.1 and 23.5 ms in rounds 1 and 2, 36.2 ms in round 3 and 43.3 ms in a fresh
        // JVM after the rounds, while the machine ran slower: confirmed, but on the slow side.
        assertTrue(ForkDeparture.confirmed(36.2, 43.3, List.of(24.1, 23.5), 1.5));
        assertFalse(ForkDeparture.siblingsInDoubt(36.2, 43.3, List.of(24.1, 23.5), 1.5), "slower forks never doubt faster ones");
        assertFalse(ForkDeparture.siblingsInDoubt(14.7, 30.0, List.of(31.0, 32.2), 1.5), "not confirmed");
        assertFalse(ForkDeparture.siblingsInDoubt(14.7, 16.0, List.of(), 1.5), "no siblings");
    }
}
