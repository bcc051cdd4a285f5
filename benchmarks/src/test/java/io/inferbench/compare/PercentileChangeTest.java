package io.inferbench.compare;

import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PercentileChangeTest {
    /** Forks of log-normal passes around {@code centreMs}, each fork shifted by N(0, forkNoise) relative. */
    static List<Histogram> forks(int count, double centreMs, double forkNoise, long seed) {
        Random random = new Random(seed);
        List<Histogram> forks = new ArrayList<>();
        for (int f = 0; f < count; f++) {
            Histogram h = PassRecorder.newHistogram();
            double centre = centreMs * 1e6 * (1 + forkNoise * random.nextGaussian());
            for (int i = 0; i < 200; i++) {
                h.recordValue(Math.round(centre * Math.exp(0.1 * random.nextGaussian())));
            }
            forks.add(h);
        }
        return forks;
    }

    @Test
    void identicalSidesGiveZeroChangeInsideTheInterval() {
        List<Histogram> side = forks(3, 10, 0.05, 12345);
        ChangeEstimate e = PercentileChange.estimate(side, side, 50, 0.95, 2000, 1);
        assertEquals(0.0, e.changePercent(), 1e-12);
        assertTrue(e.ciLowPercent() <= 0 && e.ciHighPercent() >= 0, e.toString());
        assertEquals(ChangeVerdict.NO_CHANGE, e.verdict(5));
    }

    @Test
    void forkToForkSpreadWidensTheInterval() {
        ChangeEstimate quiet = PercentileChange.estimate(forks(3, 10, 0.0, 1), forks(3, 10, 0.0, 2), 50, 0.95, 2000, 1);
        ChangeEstimate noisy = PercentileChange.estimate(forks(3, 10, 0.10, 1), forks(3, 10, 0.10, 2), 50, 0.95, 2000, 1);
        double quietWidth = quiet.ciHighPercent() - quiet.ciLowPercent();
        double noisyWidth = noisy.ciHighPercent() - noisy.ciLowPercent();
        assertTrue(noisyWidth > 3 * quietWidth, "quiet " + quiet + ", noisy " + noisy);
    }

    @Test
    void aClearShiftIsFoundWithItsSize() {
        ChangeEstimate e = PercentileChange.estimate(forks(3, 10, 0.02, 1), forks(3, 12, 0.02, 2), 50, 0.95, 2000, 1);
        assertEquals(20, e.changePercent(), 5);
        assertTrue(e.ciLowPercent() > 5, e.toString());
        assertEquals(ChangeVerdict.REGRESSED, e.verdict(5));
        ChangeEstimate back = PercentileChange.estimate(forks(3, 12, 0.02, 2), forks(3, 10, 0.02, 1), 50, 0.95, 2000, 1);
        assertEquals(ChangeVerdict.IMPROVED, back.verdict(5));
    }

    @Test
    void singleForkSidesSaySoAndAreRepeatableForASeed() {
        List<Histogram> a = forks(1, 10, 0, 1);
        List<Histogram> b = forks(1, 10, 0, 2);
        ChangeEstimate first = PercentileChange.estimate(a, b, 99, 0.95, 500, 42);
        assertFalse(first.betweenRunNoiseSampled());
        assertEquals(first, PercentileChange.estimate(a, b, 99, 0.95, 500, 42));
    }

    @Test
    void pooledPercentileAgreesWithHdrHistogram() {
        List<Histogram> side = forks(3, 10, 0.05, 7);
        Histogram merged = PassRecorder.newHistogram();
        side.forEach(merged::add);
        ChangeEstimate e = PercentileChange.estimate(side, side, 50, 0.95, 200, 1);
        assertEquals(merged.getValueAtPercentile(50) / 1e6, e.baselineMs(), merged.getValueAtPercentile(50) / 1e6 / 1000);
    }
}
