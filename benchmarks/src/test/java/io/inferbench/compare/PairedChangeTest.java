package io.inferbench.compare;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paired change against independent references: brute-force enumeration, the signed-rank table, test inversion. */
class PairedChangeTest {
    /** The null distribution of W+ against all 2^n sign patterns, counted one by one. */
    @Test
    void theExactDistributionIsTheCountOfEverySignPattern() {
        int n = 10;
        int max = n * (n + 1) / 2;
        long[] count = new long[max + 1];
        for (int signs = 0; signs < 1 << n; signs++) {
            int w = 0;
            for (int rank = 1; rank <= n; rank++) {
                if ((signs & 1 << (rank - 1)) != 0) {
                    w += rank;
                }
            }
            count[w]++;
        }
        double[] cdf = PairedChange.nullCdf(n);
        long sum = 0;
        for (int w = 0; w <= max; w++) {
            sum += count[w];
            assertEquals(sum / 1024.0, cdf[w], 1e-12, "P(W+ <= " + w + ")");
        }
    }

    /** The two-sided 5% critical values of the signed-rank test, as printed in its tables. */
    @Test
    void theCriticalRanksAreTheTablesOnes() {
        assertEquals(-1, PairedChange.criticalRank(5, 0.05), "5 pairs cannot reach 5% two-sided");
        assertEquals(0, PairedChange.criticalRank(6, 0.05));
        assertEquals(2, PairedChange.criticalRank(7, 0.05));
        assertEquals(8, PairedChange.criticalRank(10, 0.05));
        assertEquals(13, PairedChange.criticalRank(12, 0.05));
        assertEquals(25, PairedChange.criticalRank(15, 0.05));
        assertEquals(52, PairedChange.criticalRank(20, 0.05));
    }

    /** The interval is the set of shifts the signed-rank test does not reject, the statistic counted from its definition. */
    @Test
    void theIntervalIsTheSignedRankTestInverted() {
        SplittableRandom random = new SplittableRandom(42);
        int n = 12;
        double[] a = new double[n];
        double[] b = new double[n];
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = 10 * Math.exp(random.nextGaussian() * 0.3);
            b[i] = a[i] * Math.exp(0.04 + random.nextGaussian() * 0.05);
            d[i] = Math.log(b[i] / a[i]);
        }
        PairedChange change = PairedChange.of(a, b, 0.95, 5, 0);
        int c = PairedChange.criticalRank(n, 0.05);
        int max = n * (n + 1) / 2;
        double low = Math.log1p(change.ciLowPercent() / 100);
        double high = Math.log1p(change.ciHighPercent() / 100);
        double eps = 1e-9;
        assertTrue(accepted(d, low + eps, c, max) && accepted(d, high - eps, c, max), "the ends are inside");
        assertFalse(accepted(d, low - eps, c, max), "below the low end the test rejects");
        assertFalse(accepted(d, high + eps, c, max), "above the high end the test rejects");
        assertTrue(change.ciLowPercent() < change.changePercent() && change.changePercent() < change.ciHighPercent());
    }

    /** W+ of {@code d - theta}: ranks of the absolute differences, summed over the positive ones. */
    private static boolean accepted(double[] d, double theta, int c, int max) {
        int n = d.length;
        double[] abs = new double[n];
        for (int i = 0; i < n; i++) {
            abs[i] = Math.abs(d[i] - theta);
        }
        int w = 0;
        for (int i = 0; i < n; i++) {
            int rank = 1;
            for (int j = 0; j < n; j++) {
                if (abs[j] < abs[i]) {
                    rank++;
                }
            }
            if (d[i] - theta > 0) {
                w += rank;
            }
        }
        return w > c && w < max - c;
    }

    @Test
    void aTenPercentSlowerBIsSlowerAndARegressionEvenWhileTheMachineDrifts() {
        SplittableRandom random = new SplittableRandom(7);
        int n = 12;
        double[] a = new double[n];
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            double machine = 1 + 2.0 * i / n; // the machine slows threefold over the run
            a[i] = 5 * machine * (1 + 0.01 * random.nextGaussian());
            b[i] = 5 * machine * 1.10 * (1 + 0.01 * random.nextGaussian());
        }
        PairedChange change = PairedChange.of(a, b, 0.99, 5, 0);
        assertEquals(10, change.changePercent(), 1.0, change.toString());
        assertEquals(PairedVerdict.SLOWER, change.verdict());
        assertTrue(change.regression() && change.decided(2.5), change.toString());
        assertTrue(change.detectablePercent() < 2, "a 1% noise per side resolves about 1%: " + change);
    }

    @Test
    void anAaRunIsWithinAndNoRegression() {
        SplittableRandom random = new SplittableRandom(11);
        int n = 16;
        double[] a = new double[n];
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            double machine = 1 + 0.5 * random.nextDouble();
            a[i] = 2 * machine * (1 + 0.01 * random.nextGaussian());
            b[i] = 2 * machine * (1 + 0.01 * random.nextGaussian());
        }
        PairedChange change = PairedChange.of(a, b, 0.95, 5, 0);
        assertEquals(PairedVerdict.WITHIN, change.verdict(), change.toString());
        assertFalse(change.regression());
        assertTrue(change.ciLowPercent() < 0 && change.ciHighPercent() > 0, change.toString());
    }

    @Test
    void tooFewPairsForTheLevelGiveNoIntervalAndNoVerdict() {
        double[] a = {1, 1, 1, 1, 1};
        double[] b = {2, 2, 2, 2, 2};
        PairedChange change = PairedChange.of(a, b, 0.95, 5, 0);
        assertEquals(100, change.changePercent(), 1e-9, "the estimate exists");
        assertNull(change.ciLowPercent());
        assertNull(change.detectablePercent());
        assertEquals(PairedVerdict.UNRESOLVED, change.verdict());
        assertFalse(change.regression() || change.decided(2.5), "five pairs cannot decide at 95%: more are needed");
    }

    @Test
    void aWideIntervalAcrossTheThresholdIsUnresolvedAndUndecided() {
        assertEquals(PairedVerdict.UNRESOLVED, PairedChange.verdict(-3.0, 8.0, 5, 0));
        assertEquals(PairedVerdict.WITHIN, PairedChange.verdict(-3.0, 4.0, 5, 0));
        assertEquals(PairedVerdict.SLOWER, PairedChange.verdict(1.0, 4.0, 5, 0));
        assertEquals(PairedVerdict.FASTER, PairedChange.verdict(-9.0, -1.0, 5, 0));
    }

    @Test
    void theAnswerIsDecidedOnlyOnceMorePairsCannotChangeTheGate() {
        assertTrue(decided(6.0, 12.0), "a regression");
        assertTrue(decided(-2.0, 2.5), "within, and narrow enough to have seen 2.5%");
        assertFalse(decided(-3.0, 4.0), "within, but a 3% slowdown could hide in it: more pairs");
        assertTrue(decided(1.0, 4.0), "slower, below the threshold");
        assertTrue(decided(-12.0, -2.0), "faster");
        assertFalse(decided(-25.0, 4.2), "below the threshold, but it could still be slower or within: more pairs");
        assertFalse(decided(2.0, 8.0), "slower, and perhaps a regression");
        assertFalse(decided(-3.0, 8.0), "across the threshold");
    }

    /**
     * At 8 pairs and 98.75% (95% over 4 intervals) the signed-rank interval is {@code [min, max]} of the pairs' changes
     * (critical rank 0: {@code P(W+ = 0) = 1/256 <= 0.625%}), so the references below are the pairs themselves.
     */
    @Test
    void anIntervalOffZeroButNotPastTheFloorIsWithin() {
        double[] leaning = {1.003, 1.004, 1.005, 1.006, 1.008, 1.009, 1.010, 1.012}; // every pair leans B's way
        PairedChange bare = changeOf(leaning, 0);
        assertEquals(0.3, bare.ciLowPercent(), 1e-9);
        assertEquals(1.2, bare.ciHighPercent(), 1e-9);
        assertEquals(PairedVerdict.SLOWER, bare.verdict(), "no floor: any interval above 0 is slower");
        PairedChange floored = changeOf(leaning, 0.5);
        assertEquals(PairedVerdict.WITHIN, floored.verdict(), "+0.3% at least does not pass a 0.5% floor");
        assertTrue(floored.decided(1.5), "within the threshold, half-width 0.45%: known");
        assertEquals(0.5, floored.floorPercent());

        double[] threePercent = {1.021, 1.025, 1.027, 1.029, 1.031, 1.033, 1.035, 1.038};
        assertEquals(PairedVerdict.SLOWER, changeOf(threePercent, 0.5).verdict(), "a 3% slowdown lies wholly past the floor");

        double[] leaningFaster = {0.988, 0.990, 0.991, 0.992, 0.994, 0.995, 0.996, 0.997};
        assertEquals(PairedVerdict.FASTER, changeOf(leaningFaster, 0).verdict());
        assertEquals(PairedVerdict.WITHIN, changeOf(leaningFaster, 0.5).verdict(), "-0.3% at most: inside the floor");
        double[] wideFaster = {0.955, 0.96, 0.97, 0.98, 0.985, 0.99, 0.995, 0.997};
        assertFalse(changeOf(wideFaster, 0.5).decided(1.5),
                "[-4.5, -0.3]: not faster past the floor, and too wide for a within: more pairs");
        assertTrue(changeOf(wideFaster, 0).decided(1.5), "with no floor it is faster, which stops the cell");

        double[] reaching = {1.003, 1.01, 1.02, 1.03, 1.04, 1.05, 1.06, 1.07};
        assertEquals(PairedVerdict.UNRESOLVED, changeOf(reaching, 0.5).verdict(),
                "[+0.3, +7]: neither past the floor nor inside the threshold");
    }

    private static PairedChange changeOf(double[] ratios, double floorPercent) {
        double[] a = new double[ratios.length];
        double[] b = new double[ratios.length];
        for (int i = 0; i < ratios.length; i++) {
            a[i] = 10 + i;
            b[i] = a[i] * ratios[i];
        }
        PairedChange change = PairedChange.of(a, b, 1 - 0.05 / 4, 5, floorPercent);
        assertEquals(0, PairedChange.criticalRank(ratios.length, 0.05 / 4));
        return change;
    }

    private static boolean decided(double low, double high) {
        return new PairedChange(20, (low + high) / 2, low, high, 0.99, PairedChange.verdict(low, high, 5, 0), low > 5,
                100 * Math.expm1((Math.log1p(high / 100) - Math.log1p(low / 100)) / 2), 5, 0)
                .decided(2.5);
    }
}
