package io.inferbench.runner;

import io.inferbench.measure.MeasureEnd;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a fork JVM's cells say it has gone slow, against the same cells in earlier JVMs. */
class SlowJvmTest {
    private static final MeasureEnd PRECISE = MeasureEnd.PRECISE;

    @Test
    void threeSlowCellsOfTheLastFourStopIt() {
        SlowJvm jvm = new SlowJvm(1.5);
        assertNull(jvm.cellDone("a", 10, PRECISE, List.of(10.0)));
        assertNull(jvm.cellDone("b", 25, PRECISE, List.of(10.0)), "one slow cell is not a slow JVM");
        assertNull(jvm.cellDone("c", 11, PRECISE, List.of(10.0)));
        assertNull(jvm.cellDone("d", 30, PRECISE, List.of(10.0, 12.0)));
        String why = jvm.cellDone("e", 28, PRECISE, List.of(10.0));
        assertNotNull(why, "b, d and e of the last four (b, c, d, e)");
        assertTrue(why.contains("3 of its last 4 cells") && why.contains("x1.5") && why.contains("p50 28.000 ms against 10.000 ms"),
                why);
    }

    @Test
    void theSpreadOfGoodJvmsAndFasterCellsNeverStopIt() {
        SlowJvm jvm = new SlowJvm(1.5);
        for (int i = 0; i < 20; i++) {
            assertNull(jvm.cellDone("c" + i, i % 2 == 0 ? 14.5 : 4.0, PRECISE, List.of(10.0)),
                    "1.45x slower, or 2.5x faster (the normal JVM after a slow one): go on");
        }
    }

    @Test
    void roundOneAndFixedCountsAreNotJudged() {
        SlowJvm jvm = new SlowJvm(1.5);
        for (int i = 0; i < 10; i++) {
            assertNull(jvm.cellDone("r1-" + i, 50, PRECISE, List.of()), "nothing earlier to compare with");
            assertNull(jvm.cellDone("fixed-" + i, 50, MeasureEnd.FIXED_COUNT, List.of(10.0)), "no interval to judge it by");
        }
    }

    @Test
    void theMedianOfEarlierForksIsTheReference() {
        SlowJvm jvm = new SlowJvm(1.5);
        // Earlier forks 10, 10 and 40 (one of them slow): the reference is 10, so 16 is slow.
        for (int i = 0; i < 2; i++) {
            assertNull(jvm.cellDone("m" + i, 16, PRECISE, List.of(10.0, 40.0, 10.0)));
        }
        assertNotNull(jvm.cellDone("m2", 16, PRECISE, List.of(10.0, 40.0, 10.0)));
    }
}
