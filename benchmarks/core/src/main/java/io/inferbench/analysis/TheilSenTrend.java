package io.inferbench.analysis;

import io.inferbench.BenchmarkException;
import org.apache.commons.math3.distribution.NormalDistribution;

import java.util.Arrays;

/**
 * A monotonic trend in a short series, robust to the outliers a noisy machine throws in: Theil–Sen's slope (the median
 * of every pair's slope), Sen's (1968) distribution-free interval for it, and the Mann–Kendall test of "no trend".
 *
 * <p>The interval is the rank interval R's {@code trend::sens.slope} and Gilbert (1987, ch. 16) give: with {@code N}
 * pairwise slopes sorted and {@code C = z(1 - alpha/2) * sqrt(Var S)}, the bounds are the slopes of rank
 * {@code round((N - C) / 2)} and {@code round((N + C) / 2 + 1)}, clamped to {@code [1, N]}. {@code Var S} is Mann–Kendall's
 * variance with its correction for tied values. Both rest on the normal approximation to Kendall's S, which is fair from
 * about 10 points; with fewer the interval is wider than it looks and the test's p is approximate, which the caller's
 * minimum of {@link #MIN_POINTS} bounds (with 4 points no trend, however steep, can reach p &lt; 0.05).
 *
 * <p>One hazard: the points are assumed independent. Windows of one load are not quite (a slow patch can span two), so
 * the p-value is optimistic by a little; the verdicts that use it also ask for a rate above a floor.
 *
 * @param slope  Theil–Sen's slope, y units per x unit
 * @param low    the interval's lower bound, same units
 * @param high   its upper bound
 * @param kendallS Mann–Kendall's S: concordant minus discordant pairs
 * @param pValue the two-sided p of "no monotonic trend", from S with the continuity correction
 * @param points how many (x, y) points
 */
public record TheilSenTrend(double slope, double low, double high, long kendallS, double pValue, int points) {
    /** Fewest points a trend is estimated from: with 4, Mann–Kendall cannot reject "no trend" at 5%. */
    public static final int MIN_POINTS = 5;
    /** The interval's confidence and the test's level. */
    public static final double CONFIDENCE = 0.95;

    /** True when the test rejects "no monotonic trend" at {@code 1 - }{@link #CONFIDENCE}. */
    public boolean significant() {
        return pValue < 1 - CONFIDENCE;
    }

    /**
     * The trend of {@code y} over {@code x}.
     *
     * @throws BenchmarkException with fewer than {@link #MIN_POINTS} points, unequal lengths, a non-finite value, or two
     *                            equal {@code x}
     */
    public static TheilSenTrend of(double[] x, double[] y) {
        int n = x.length;
        if (y.length != n) {
            throw new BenchmarkException("a trend needs one y per x, got " + n + " x and " + y.length + " y");
        }
        if (n < MIN_POINTS) {
            throw new BenchmarkException("a trend needs at least " + MIN_POINTS + " points, got " + n);
        }
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(x[i]) || !Double.isFinite(y[i])) {
                throw new BenchmarkException("a trend's points must be finite, got (" + x[i] + ", " + y[i] + ") at " + i);
            }
        }
        double[] slopes = new double[n * (n - 1) / 2];
        long s = 0;
        int k = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double dx = x[j] - x[i];
                if (dx == 0) {
                    throw new BenchmarkException("a trend's x values must differ, got " + x[i] + " twice");
                }
                slopes[k++] = (y[j] - y[i]) / dx;
                // S counts by time order: a pair later in x with a larger y is concordant.
                s += (long) Math.signum(dx) * (long) Math.signum(y[j] - y[i]);
            }
        }
        Arrays.sort(slopes);
        double variance = varianceOfS(y);
        double z = variance <= 0 ? 0 : (s - Math.signum(s)) / Math.sqrt(variance);
        NormalDistribution normal = new NormalDistribution();
        double p = variance <= 0 ? 1 : 2 * (1 - normal.cumulativeProbability(Math.abs(z)));
        double c = normal.inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2) * Math.sqrt(variance);
        int count = slopes.length;
        int lowRank = clamp((int) Math.round((count - c) / 2), count);
        int highRank = clamp((int) Math.round((count + c) / 2 + 1), count);
        return new TheilSenTrend(median(slopes), slopes[lowRank - 1], slopes[highRank - 1], s, p, n);
    }

    /** Mann–Kendall's variance of S, less each group of tied y values' share: n(n-1)(2n+5) minus t(t-1)(2t+5) per tie, over 18. */
    static double varianceOfS(double[] y) {
        int n = y.length;
        double[] sorted = y.clone();
        Arrays.sort(sorted);
        double ties = 0;
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && sorted[j + 1] == sorted[i]) {
                j++;
            }
            int t = j - i + 1;
            ties += t * (t - 1.0) * (2 * t + 5);
            i = j + 1;
        }
        return (n * (n - 1.0) * (2 * n + 5) - ties) / 18;
    }

    private static int clamp(int rank, int count) {
        return Math.max(1, Math.min(count, rank));
    }

    private static double median(double[] sorted) {
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    }
}
