package io.inferbench.measure;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The distribution-free confidence interval of a median from order statistics: with n values sorted, the interval
 * {@code [x(k), x(n-k+1)]} covers the true median with probability {@code 1 - 2·P(B ≤ k-1)}, B ~ Binomial(n, 1/2),
 * whatever the distribution. k is the largest rank whose coverage is still at least the confidence asked for, found
 * from the exact binomial distribution (Commons Math), not a normal approximation: for n = 100 at 95% it gives ranks
 * 40 and 61, as the published tables do. Below n = 6 no 95% interval exists (even {@code [min, max]} covers only
 * 1 - 2/2^n).
 *
 * <p>Values come from an HdrHistogram: each rank's value is the highest value equivalent to its bucket, as
 * {@code getValueAtPercentile} reports them (3 significant digits, about 0.1%, far below any precision asked of it).
 * The median is the nearest-rank one, {@code x(ceil(n/2))}, the same as the p50 every table reports.
 *
 * @param lowNs        {@code x(k)}
 * @param medianNs     {@code x(ceil(n/2))}
 * @param highNs       {@code x(n-k+1)}
 * @param lowRank      k, 1-based
 * @param highRank     n - k + 1, 1-based
 * @param coverage     the interval's exact coverage, at least the confidence asked for
 */
public record MedianInterval(long lowNs, long medianNs, long highNs, long lowRank, long highRank, double coverage) {

    /** The farther of the two ends from the median, as a fraction of the median. */
    public double halfWidth() {
        return Math.max(medianNs - lowNs, highNs - medianNs) / (double) medianNs;
    }

    /** The interval at {@code confidence} for the values in {@code histogram}, or null when n is too small for one. */
    public static MedianInterval of(Histogram histogram, double confidence) {
        long n = histogram.getTotalCount();
        long k = lowRank(n, confidence);
        if (k < 1) {
            return null;
        }
        long median = (n + 1) / 2;
        long[] ranks = {k, median, n - k + 1};
        long[] values = valuesAtRanks(histogram, ranks);
        double coverage = 1 - 2 * binomial(n).cumulativeProbability(Math.toIntExact(k - 1));
        return new MedianInterval(values[0], values[1], values[2], k, n - k + 1, coverage);
    }

    /**
     * The largest k with {@code P(B ≤ k-1) ≤ (1 - confidence) / 2} for B ~ Binomial(n, 1/2); 0 when none exists (n too
     * small for that confidence).
     */
    static long lowRank(long n, double confidence) {
        if (n < 1) {
            return 0;
        }
        double tail = (1 - confidence) / 2;
        BinomialDistribution b = binomial(n);
        int j = b.inverseCumulativeProbability(tail);
        return b.cumulativeProbability(j) <= tail ? j + 1 : j;
    }

    private static BinomialDistribution binomial(long n) {
        // No random generator: only the distribution's functions are used, never sampling.
        return new BinomialDistribution(null, Math.toIntExact(n), 0.5);
    }

    /** The values at ascending 1-based ranks, in one pass over the recorded values. */
    static long[] valuesAtRanks(Histogram histogram, long[] ranks) {
        long[] values = new long[ranks.length];
        int next = 0;
        long seen = 0;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            seen += v.getCountAtValueIteratedTo();
            while (next < ranks.length && ranks[next] <= seen) {
                values[next++] = histogram.highestEquivalentValue(v.getValueIteratedTo());
            }
            if (next == ranks.length) {
                break;
            }
        }
        return values;
    }
}
