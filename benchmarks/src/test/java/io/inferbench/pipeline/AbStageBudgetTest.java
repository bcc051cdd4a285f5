package io.inferbench.pipeline;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Issue 66: an A/B run stops early only when what would decide every open cell is far beyond what is left of its cap. */
class AbStageBudgetTest {
    @Test
    void pairsStopWhenEveryOpenCellNeedsTwiceWhatIsLeftAndSayWhatWouldDecideThem() {
        // 20 pairs of 9 s each: 180 s of a 5-minute cap gone, 13 pairs left by time (40 by count).
        assertEquals("out of reach: the open cell(s) need about 60 more pair(s), 9.0 min, and 13 are left in the cap; "
                        + "-Dbench.ab.maxMinutes=12 and -Dbench.ab.maxPairs=80 would decide them",
                AbStage.outOfReach(List.of(30, 60), 20, 180, 9.0, 40, 5));
    }

    @Test
    void aCellWithinReachOrWithoutAnEstimateKeepsThePairsGoing() {
        assertNull(AbStage.outOfReach(List.of(20, 60), 20, 180, 9.0, 40, 5), "20 pairs are within twice the 13 left");
        assertNull(AbStage.outOfReach(Arrays.asList(null, 60), 20, 180, 9.0, 40, 5), "no estimate: measure on");
        assertNull(AbStage.outOfReach(List.of(60), AbStage.PAIRS_BEFORE_GIVING_UP - 1, 100, 9.0, 40, 5),
                "too few pairs for an estimate to be trusted");
        assertNull(AbStage.outOfReach(List.of(60), 20, 180, null, 40, 5), "no pair's time yet");
    }
}
