package io.inferbench.compare;

import io.inferbench.BenchmarkException;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An A/B run's settings as read from {@code -D} properties: above all, the resolution each mode stops its cells at. */
class AbSettingTest {

    private static Properties ab(String... pairs) {
        Properties p = new Properties();
        p.setProperty("bench.ab.baseline", "tiny");
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return p;
    }

    @Test
    void passesResolvesToOneAndAHalfPercentAndForksToOnePointEight() {
        AbOptions auto = AbSetting.read(ab(), false);
        assertEquals(AbOptions.Mode.PASSES, auto.mode());
        assertNull(auto.askedResolutionPercent(), "none was given");
        assertEquals(1.5, auto.resolutionPercent(), "a pair is precise in its own fork");
        assertEquals(1.8, auto.withMode(AbOptions.Mode.FORKS).resolutionPercent(),
                "a passes run that falls back to forks stops where forks does");
        assertEquals(1.8, AbSetting.read(ab("bench.ab.mode", "duet"), false).resolutionPercent());
        assertEquals(1.8, AbSetting.read(ab("bench.ab.mode", "forks"), true).resolutionPercent());
    }

    @Test
    void aResolutionGivenIsKeptInEveryMode() {
        AbOptions asked = AbSetting.read(ab("bench.ab.resolution", "2.5"), false);
        assertEquals(2.5, asked.resolutionPercent());
        assertEquals(2.5, asked.withMode(AbOptions.Mode.FORKS).resolutionPercent());
    }

    @Test
    void theModesResolutionIsNeverAboveTheThreshold() {
        assertEquals(1.0, AbSetting.read(ab("bench.ab.threshold", "1"), false).resolutionPercent(),
                "a 1% threshold: a within must see 1%, not 1.5%");
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> AbSetting.read(ab("bench.ab.threshold", "1", "bench.ab.resolution", "1.5"), false));
        assertTrue(e.getMessage().contains("at most the threshold (1.0)"), e.getMessage());
    }

    @Test
    void aResolutionThatIsNotAHalfWidthIsRefused() {
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> AbSetting.read(ab("bench.ab.resolution", "0"), false));
        assertTrue(e.getMessage().startsWith("-Dbench.ab.resolution is a half-width in percent above 0"), e.getMessage());
        assertThrows(BenchmarkException.class, () -> AbSetting.read(ab("bench.ab.resolution", "fine"), false));
    }

    @Test
    void theFloorIsHalfAPercentOrHalfTheThresholdAndAGivenOneIsKept() {
        assertEquals(0.5, AbSetting.read(ab(), false).floorPercent());
        assertEquals(0.4, AbSetting.read(ab("bench.ab.threshold", "0.8"), false).floorPercent(),
                "a floor as high as the threshold would leave no room for `slower` below a regression");
        assertEquals(0.0, AbSetting.read(ab("bench.ab.floor", "0"), false).floorPercent(), "0: any interval off 0 is called");
        assertEquals(1.0, AbSetting.read(ab("bench.ab.floor", "1"), false).floorPercent());
    }

    @Test
    void aFloorBelowZeroOrAtTheThresholdIsRefused() {
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> AbSetting.read(ab("bench.ab.floor", "5"), false));
        assertTrue(e.getMessage().startsWith("-Dbench.ab.floor is a change in percent from 0 up to below the threshold (5.0)"),
                e.getMessage());
        assertThrows(BenchmarkException.class, () -> AbSetting.read(ab("bench.ab.floor", "-0.1"), false));
    }
}
