package io.inferbench.analysis;

import io.inferbench.BenchmarkException;
import org.apache.commons.math3.stat.correlation.KendallsCorrelation;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Theil–Sen's slope, Sen's interval and Mann–Kendall's test, against independent computations and their error rates. */
class TheilSenTrendTest {
    private static double[] index(int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i;
        }
        return x;
    }

    /** An exact line: every pairwise slope is the line's, so the interval closes on it and the test sees a trend. */
    @Test
    void anExactLineHasItsSlopeAndAClosedInterval() {
        double[] x = index(10);
        double[] y = new double[10];
        for (int i = 0; i < 10; i++) {
            y[i] = 3 * x[i] + 2;
        }
        TheilSenTrend t = TheilSenTrend.of(x, y);
        assertEquals(3, t.slope(), 1e-12);
        assertEquals(3, t.low(), 1e-12);
        assertEquals(3, t.high(), 1e-12);
        assertEquals(45, t.kendallS(), "every one of the 45 pairs is concordant");
        assertTrue(t.significant(), "p " + t.pValue());
    }

    /** Kendall's S is tau-a times the pairs; Commons Math's tau (tau-b, equal to tau-a without ties) is the reference. */
    @Test
    void kendallsSMatchesCommonsMathsTau() {
        Random random = new Random(12345);
        double[] x = index(30);
        double[] y = new double[30];
        for (int i = 0; i < 30; i++) {
            y[i] = 0.05 * i + random.nextGaussian();
        }
        double tau = new KendallsCorrelation().correlation(x, y);
        assertEquals(Math.round(tau * 30 * 29 / 2), TheilSenTrend.of(x, y).kendallS());
    }

    /** One wild window does not move the slope of a flat series, where least squares is dragged far off. */
    @Test
    void oneOutlierDoesNotMakeATrend() {
        double[] x = index(8);
        double[] y = {1, 1, 1, 1, 1, 1, 1, 100};
        TheilSenTrend t = TheilSenTrend.of(x, y);
        SimpleRegression ols = new SimpleRegression();
        for (int i = 0; i < 8; i++) {
            ols.addData(x[i], y[i]);
        }
        assertEquals(0, t.slope(), 1e-12);
        assertTrue(ols.getSlope() > 5, "least squares, the contrast: " + ols.getSlope());
        assertFalse(t.significant(), "p " + t.pValue());
    }

    /** Var S with ties: n(n-1)(2n+5) less t(t-1)(2t+5) per tie group, over 18 (Gilbert 1987, eq. 16.4). */
    @Test
    void theVarianceOfSCountsTies() {
        assertEquals((5 * 4 * 15 - 2 * 1 * 9) / 18.0, TheilSenTrend.varianceOfS(new double[] {1, 1, 2, 3, 4}), 1e-12);
        assertEquals(5 * 4 * 15 / 18.0, TheilSenTrend.varianceOfS(new double[] {5, 1, 2, 3, 4}), 1e-12);
    }

    /**
     * The interval's coverage and the test's false alarms, over 2,000 seeded series of 12 points with Gaussian noise: a 95%
     * interval that covered far less, or a 5% test that rang far more often, would be caught.
     */
    @Test
    void theIntervalCoversAndTheTestKeepsItsLevel() {
        Random random = new Random(12345);
        double[] x = index(12);
        int covered = 0;
        int falseAlarms = 0;
        int trials = 2000;
        for (int trial = 0; trial < trials; trial++) {
            double[] sloped = new double[12];
            double[] flat = new double[12];
            for (int i = 0; i < 12; i++) {
                sloped[i] = 0.5 * i + random.nextGaussian();
                flat[i] = random.nextGaussian();
            }
            TheilSenTrend t = TheilSenTrend.of(x, sloped);
            if (t.low() <= 0.5 && 0.5 <= t.high()) {
                covered++;
            }
            if (TheilSenTrend.of(x, flat).significant()) {
                falseAlarms++;
            }
        }
        assertTrue(covered >= 0.92 * trials && covered <= 0.99 * trials, "coverage " + covered + " of " + trials);
        assertTrue(falseAlarms >= 0.02 * trials && falseAlarms <= 0.08 * trials, "false alarms " + falseAlarms + " of " + trials);
    }

    @Test
    void tooFewPointsAreRefusedNamingTheMinimum() {
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> TheilSenTrend.of(new double[] {0, 1, 2, 3}, new double[] {1, 2, 3, 4}));
        assertTrue(e.getMessage().contains("at least 5 points"), e.getMessage());
    }
}
