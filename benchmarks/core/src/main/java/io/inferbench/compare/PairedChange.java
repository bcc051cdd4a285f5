package io.inferbench.compare;

import io.inferbench.BenchmarkException;

import java.util.Arrays;

/**
 * The change of B against A from paired observations: A and B measured side by side, pair by pair, so that each pair
 * saw one state of the machine and the machine's drift cancels in the pair's ratio. The change is the Hodges–Lehmann
 * estimate of the pairs' log-ratios {@code ln(B/A)} (the median of their Walsh averages), and its interval is the
 * Wilcoxon signed-rank test's, inverted: the Walsh averages between the test's critical ranks, from the statistic's
 * exact distribution under the null hypothesis (every pattern of signs equally likely). It needs no normality and no
 * equal variances, only that a pair's log-ratio is symmetric about the change; one wild pair moves it by one rank.
 * Ratios make the change a percentage of A whatever the cell's latency.
 *
 * <p><b>How many pairs.</b> With {@code n} pairs the smallest error the test can reach is {@code 2 / 2^n}: a 95% interval
 * needs 6 pairs, and a 99.2% one (95% over 6 intervals, Bonferroni) needs 8. With fewer there is no interval, and the
 * verdict is {@link PairedVerdict#UNRESOLVED}.
 *
 * <p><b>The floor.</b> {@code slower} and {@code faster} need the interval wholly beyond ±{@code floorPercent}, not only
 * beyond 0, as criterion.rs's noise threshold does. At the fewest pairs the interval is {@code [min, max]}, so an A/A run
 * is called {@code slower} whenever every pair leans one way, about 1 time in 100 per interval, by as little as +0.3%;
 * a gate whose A/A runs must never say {@code slower} needs the floor (docs/statistics-and-compare.md, "The floor").
 *
 * @param pairs             the pairs the estimate used
 * @param changePercent     B against A, in percent of A: {@code 100 (exp(HL) - 1)}
 * @param ciLowPercent      the interval's lower end, in percent; null where the pairs are too few for {@code level}
 * @param ciHighPercent     its upper end
 * @param level             the interval's confidence (simultaneous over the cells when the caller asked for it)
 * @param verdict           {@link PairedVerdict} by {@code thresholdPercent}
 * @param regression        the interval lies wholly above {@code thresholdPercent}
 * @param detectablePercent the smallest change this many pairs with this spread could have told from none: the
 *                          interval's half-width, in percent; null with no interval. A {@code within} never proves more
 *                          than this
 * @param thresholdPercent  the change, in percent, that is a regression
 * @param floorPercent      the smallest change, in percent, called {@code slower} or {@code faster}
 */
public record PairedChange(int pairs, double changePercent, Double ciLowPercent, Double ciHighPercent, double level,
                           PairedVerdict verdict, boolean regression, Double detectablePercent, double thresholdPercent,
                           double floorPercent) {

    /** Pairs beyond which the exact distribution is not computed: the interval would need more memory than it is worth. */
    static final int MAX_PAIRS = 2_000;

    /**
     * @param a                A's observation in each pair (say, its p50 over the pair's fork), positive
     * @param b                B's, in the same order
     * @param level            the interval's confidence, e.g. 0.95, or a Bonferroni share of a family's
     * @param thresholdPercent the change that is a regression, in percent (5: B 5% slower than A)
     * @param floorPercent     the smallest change called {@code slower} or {@code faster}, in percent, below the
     *                         threshold; 0 calls any interval that excludes 0
     */
    public static PairedChange of(double[] a, double[] b, double level, double thresholdPercent, double floorPercent) {
        if (a.length != b.length || a.length == 0) {
            throw new IllegalArgumentException("pairs: " + a.length + " observations of A and " + b.length + " of B");
        }
        if (a.length > MAX_PAIRS) {
            throw new BenchmarkException(a.length + " pairs: at most " + MAX_PAIRS + " are compared exactly");
        }
        double[] d = new double[a.length];
        for (int i = 0; i < d.length; i++) {
            if (!(a[i] > 0) || !(b[i] > 0)) {
                throw new IllegalArgumentException("pair " + i + " holds a latency that is not positive: A " + a[i] + ", B " + b[i]);
            }
            d[i] = Math.log(b[i] / a[i]);
        }
        double[] walsh = walshAverages(d);
        double estimate = median(walsh);
        int c = criticalRank(d.length, 1 - level);
        Double low = null;
        Double high = null;
        if (c >= 0) {
            low = percent(walsh[c]);
            high = percent(walsh[walsh.length - 1 - c]);
        }
        PairedVerdict verdict = verdict(low, high, thresholdPercent, floorPercent);
        Double detectable = low == null ? null : percent((Math.log1p(high / 100) - Math.log1p(low / 100)) / 2);
        return new PairedChange(d.length, percent(estimate), low, high, level, verdict,
                low != null && low > thresholdPercent, detectable, thresholdPercent, floorPercent);
    }

    /** This change with no verdict: the data it came from are in doubt, and the pairs do not prove a change. */
    public PairedChange unresolved() {
        return new PairedChange(pairs, changePercent, ciLowPercent, ciHighPercent, level, PairedVerdict.UNRESOLVED, false,
                detectablePercent, thresholdPercent, floorPercent);
    }

    /**
     * Whether the answer is known, so that more pairs would not change it: the interval lies wholly above the threshold
     * (a regression) or wholly below -floor (faster); or it lies wholly inside ±threshold and its half-width is at most
     * {@code resolutionPercent}, so that a change of that size would have shown as {@code slower}. An interval below
     * the threshold that still reaches past -threshold is not an answer ({@code [-25, +4]}); nor, with a resolution of
     * 2.5%, is {@code [-1, +4]} (half-width 2.5% in ratio terms is {@code [-1.5, +3.5]}): a 3% slowdown could hide in it.
     *
     * @param resolutionPercent the change a {@code within} must be able to see (the interval's half-width)
     */
    public boolean decided(double resolutionPercent) {
        if (ciLowPercent == null) {
            return false;
        }
        if (ciLowPercent > thresholdPercent || ciHighPercent < -floorPercent) {
            return true;
        }
        return ciLowPercent > -thresholdPercent && ciHighPercent < thresholdPercent && detectablePercent <= resolutionPercent;
    }

    static PairedVerdict verdict(Double low, Double high, double thresholdPercent, double floorPercent) {
        if (low == null) {
            return PairedVerdict.UNRESOLVED;
        }
        if (low > floorPercent) {
            return PairedVerdict.SLOWER;
        }
        if (high < -floorPercent) {
            return PairedVerdict.FASTER;
        }
        return low > -thresholdPercent && high < thresholdPercent ? PairedVerdict.WITHIN : PairedVerdict.UNRESOLVED;
    }

    private static double percent(double logRatio) {
        return 100 * Math.expm1(logRatio);
    }

    /** Every {@code (d[i] + d[j]) / 2} with {@code i <= j}, sorted. */
    static double[] walshAverages(double[] d) {
        double[] w = new double[d.length * (d.length + 1) / 2];
        int k = 0;
        for (int i = 0; i < d.length; i++) {
            for (int j = i; j < d.length; j++) {
                w[k++] = (d[i] + d[j]) / 2;
            }
        }
        Arrays.sort(w);
        return w;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * The largest {@code c} with {@code P(W+ <= c) <= alpha / 2} for the signed-rank statistic of {@code n} pairs under
     * the null hypothesis; -1 where even {@code P(W+ = 0) = 2^-n} exceeds it (too few pairs for {@code alpha}). The
     * interval is then the {@code (c+1)}-th smallest and the {@code (c+1)}-th largest Walsh average.
     */
    static int criticalRank(int n, double alpha) {
        double[] cdf = nullCdf(n);
        int c = -1;
        while (c + 1 < cdf.length && cdf[c + 1] <= alpha / 2 * (1 + 1e-12)) {
            c++;
        }
        return c;
    }

    /**
     * {@code P(W+ <= w)} for {@code w = 0 .. n(n+1)/2}: the statistic's exact distribution, each rank's sign a fair coin,
     * built rank by rank (the probabilities halve at each rank, so nothing overflows).
     */
    static double[] nullCdf(int n) {
        int max = n * (n + 1) / 2;
        double[] p = new double[max + 1];
        p[0] = 1;
        int reach = 0;
        for (int rank = 1; rank <= n; rank++) {
            for (int w = reach + rank; w >= 0; w--) {
                double without = p[w] / 2;
                double with = w >= rank ? p[w - rank] / 2 : 0;
                p[w] = without + with;
            }
            reach += rank;
        }
        double[] cdf = new double[max + 1];
        double sum = 0;
        for (int w = 0; w <= max; w++) {
            sum += p[w];
            cdf[w] = sum;
        }
        return cdf;
    }
}
