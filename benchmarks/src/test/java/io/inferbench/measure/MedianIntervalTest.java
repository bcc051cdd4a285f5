package io.inferbench.measure;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The median's order-statistic interval against published tables and an independent binomial computation. */
class MedianIntervalTest {

    @Test
    void ranksMatchThePublishedTables() {
        // Conover, Practical Nonparametric Statistics: 95% intervals for the median are (x(2), x(9)) for n = 10 with
        // coverage 0.979, (x(6), x(15)) for n = 20 with 0.959, (x(40), x(61)) for n = 100.
        assertEquals(2, MedianInterval.lowRank(10, 0.95));
        assertEquals(6, MedianInterval.lowRank(20, 0.95));
        assertEquals(40, MedianInterval.lowRank(100, 0.95));
        Histogram h = histogramOf(1, 20);
        MedianInterval interval = MedianInterval.of(h, 0.95);
        assertEquals(6, interval.lowRank());
        assertEquals(15, interval.highRank());
        assertEquals(0.9586, interval.coverage(), 1e-4);
    }

    @Test
    void noIntervalBelowSixPasses() {
        assertEquals(0, MedianInterval.lowRank(5, 0.95), "even [min, max] of 5 covers only 1 - 2/32 = 0.9375");
        assertNull(MedianInterval.of(histogramOf(1, 5), 0.95));
        assertEquals(1, MedianInterval.lowRank(6, 0.95));
    }

    @Test
    void ranksAgreeWithAnExactBinomialSumForEverySmallN() {
        for (int n = 1; n <= 200; n++) {
            for (double confidence : new double[] {0.90, 0.95, 0.99}) {
                assertEquals(lowRankBySummation(n, confidence), MedianInterval.lowRank(n, confidence), "n = " + n + " at " + confidence);
            }
        }
    }

    /** The largest k with P(B <= k-1) <= (1-c)/2, B ~ Binomial(n, 1/2), from log-space binomial terms summed in order. */
    private static long lowRankBySummation(int n, double confidence) {
        double tail = (1 - confidence) / 2;
        double cumulative = 0;
        double logTerm = n * Math.log(0.5);
        long k = 0;
        for (int j = 0; j <= n; j++) {
            cumulative += Math.exp(logTerm);
            if (cumulative > tail * (1 + 1e-12)) {
                break;
            }
            k = j + 1;
            logTerm += Math.log(n - j) - Math.log(j + 1);
        }
        return k;
    }

    @Test
    void valuesAreTheOrderStatisticsOfTheRecordedPasses() {
        Random random = new Random(12345);
        long[] values = random.longs(257, 100_000, 5_000_000).toArray();
        Histogram h = PassRecorder.newHistogram();
        Arrays.stream(values).forEach(h::recordValue);
        Arrays.sort(values);
        MedianInterval interval = MedianInterval.of(h, 0.95);
        assertEquals(h.highestEquivalentValue(values[(int) interval.lowRank() - 1]), interval.lowNs());
        assertEquals(h.highestEquivalentValue(values[128]), interval.medianNs(), "nearest rank ceil(257/2) = 129");
        assertEquals(h.getValueAtPercentile(50), interval.medianNs(), "the same p50 the tables report");
        assertEquals(h.highestEquivalentValue(values[(int) interval.highRank() - 1]), interval.highNs());
        assertEquals(257 - interval.lowRank() + 1, interval.highRank());
    }

    @Test
    void coversTheTrueMedianAsOftenAsItSaysOnASkewedDistribution() {
        // Exponential passes (a long right tail, like latency): the true median is ln 2 in units of the mean.
        Random random = new Random(12345);
        double trueMedianNs = Math.log(2) * 1_000_000;
        int trials = 2000;
        int covered = 0;
        double coverage = 0;
        Histogram h = PassRecorder.newHistogram(); // one, reset per trial: each is half a megabyte of counts
        for (int t = 0; t < trials; t++) {
            h.reset();
            for (int i = 0; i < 50; i++) {
                h.recordValue(1 + (long) (-Math.log(1 - random.nextDouble()) * 1_000_000));
            }
            MedianInterval interval = MedianInterval.of(h, 0.95);
            coverage = interval.coverage();
            if (interval.lowNs() <= trueMedianNs * 1.001 && interval.highNs() >= trueMedianNs * 0.999) {
                covered++;
            }
        }
        double observed = covered / (double) trials;
        assertTrue(coverage >= 0.95, "the exact coverage at n = 50 is at least the confidence: " + coverage);
        assertTrue(observed > 0.94 && observed < 0.99, "observed coverage " + observed + " against the exact " + coverage);
    }

    @Test
    void halfWidthIsTheFartherEndAsAFractionOfTheMedian() {
        MedianInterval interval = new MedianInterval(900, 1000, 1050, 1, 6, 0.97);
        assertEquals(0.10, interval.halfWidth(), 1e-12);
    }

    private static Histogram histogramOf(int from, int to) {
        Histogram h = PassRecorder.newHistogram();
        for (int v = from; v <= to; v++) {
            h.recordValue(v * 1000L);
        }
        return h;
    }
}
