package io.inferbench.compare;

import io.inferbench.Text;
import io.inferbench.measure.HistogramCodec;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The change of a latency percentile between two runs, with a confidence interval that includes run-to-run noise.
 *
 * <p>Each fork is one observation, its own percentile on a log scale: the passes of one JVM are not independent draws
 * (docs/statistics-and-compare.md, "The statistics"). With two or more forks a side the interval is Welch's t-interval
 * for the difference of the mean log fork-percentiles, centred on the log ratio of the pooled percentiles; callers pass
 * each side's spread {@linkplain #pool pooled} over a series' batch sizes, since 3 forks give a cell 2 degrees of
 * freedom. With one fork on either side it falls back to a seeded bootstrap over the passes, which sees no run-to-run
 * noise ({@link ChangeEstimate#betweenRunNoiseSampled()} false: such a comparison should not gate anything).
 *
 * <p>No interval is given ({@link ChangeEstimate#notResolved()}, and the percentile takes no part in the verdict) where a
 * fork has fewer than {@link #passesToResolve} passes (its "p99" is its maximum), or where the degrees of freedom are
 * {@value #MIN_DEGREES_OF_FREEDOM} or fewer (Student's t has no finite variance). Percentiles are nearest-rank over
 * HdrHistogram values (3 significant digits).
 */
public final class PercentileChange {
    /** An interval needs more degrees of freedom than this: at 2 or fewer, Student's t has no finite variance. */
    public static final double MIN_DEGREES_OF_FREEDOM = 2;

    private PercentileChange() {
    }

    /**
     * Passes a fork needs for its nearest-rank {@code percentile} to differ from its maximum:
     * {@code ceil(1 / (1 - p/100))}, so 2 for p50, 100 for p99, 1000 for p99.9.
     */
    public static int passesToResolve(double percentile) {
        return (int) Math.ceil(1 / (1 - percentile / 100) - 1e-9);
    }

    /** An interval on the log scale, with the degrees of freedom of its t quantile (null for a bootstrap). */
    record Interval(double low, double high, Double degreesOfFreedom) {
    }

    /**
     * The spread of fork-level log percentiles on one side: a sample variance and its degrees of freedom. Pooled over
     * the cells of a series ({@link #pool}), it replaces each cell's own 3-fork variance.
     */
    public record ForkSpread(double variance, int degreesOfFreedom) {
    }

    /** Each fork's own percentile, on a log scale. */
    public static double[] forkLogPercentiles(List<Histogram> forks, double percentile) {
        return forkLogs(expand(forks), percentile);
    }

    /**
     * Pools the within-cell variance of fork log-percentiles over several cells: {@code Σ Σ (l - mean_cell)² / Σ (k - 1)}.
     * Cells with one fork add nothing. Null when no cell has two forks.
     */
    public static ForkSpread pool(List<double[]> cells) {
        double sum = 0;
        int dof = 0;
        for (double[] logs : cells) {
            if (logs.length < 2) {
                continue;
            }
            double mean = Arrays.stream(logs).average().orElseThrow();
            for (double l : logs) {
                sum += (l - mean) * (l - mean);
            }
            dof += logs.length - 1;
        }
        return dof == 0 ? null : new ForkSpread(sum / dof, dof);
    }

    /** The change with each side's own fork spread (Welch, per cell). */
    public static ChangeEstimate estimate(List<Histogram> baselineForks, List<Histogram> candidateForks, double percentile,
                                          double confidenceLevel, int resamples, long seed) {
        return estimate(baselineForks, candidateForks, percentile, confidenceLevel, resamples, seed, null, null);
    }

    /**
     * The change, with the fork spread of each side given (pooled over its series), or computed from this cell's
     * forks when null. With one fork on a side and no pooled spread, falls back to the pass bootstrap.
     */
    public static ChangeEstimate estimate(List<Histogram> baselineForks, List<Histogram> candidateForks, double percentile,
                                          double confidenceLevel, int resamples, long seed,
                                          ForkSpread baselineSpread, ForkSpread candidateSpread) {
        long[][] baseline = expand(baselineForks);
        long[][] candidate = expand(candidateForks);
        double baselineNs = quantile(pooledSorted(baseline), percentile);
        double candidateNs = quantile(pooledSorted(candidate), percentile);
        double logRatio = Math.log(candidateNs / baselineNs);
        double changePercent = 100 * Math.expm1(logRatio);
        ForkSpread b = baselineSpread != null ? baselineSpread : pool(List.of(forkLogs(baseline, percentile)));
        ForkSpread c = candidateSpread != null ? candidateSpread : pool(List.of(forkLogs(candidate, percentile)));
        boolean sampled = baseline.length > 1 && candidate.length > 1 && b != null && c != null;

        int needed = passesToResolve(percentile);
        int baselinePasses = fewestPasses(baseline);
        int candidatePasses = fewestPasses(candidate);
        if (baselinePasses < needed || candidatePasses < needed) {
            String why = "needs ≥ " + needed + " passes per fork; the " + (baselinePasses < needed
                    ? "baseline has " + baselinePasses : "candidate has " + candidatePasses);
            return new ChangeEstimate(baselineNs / 1e6, candidateNs / 1e6, changePercent, null, null, sampled, null, why);
        }
        Interval interval = sampled
                ? welchInterval(b, baseline.length, c, candidate.length, logRatio, confidenceLevel)
                : bootstrapInterval(baseline, candidate, percentile, confidenceLevel, resamples, seed);
        if (interval.degreesOfFreedom() != null && interval.degreesOfFreedom() <= MIN_DEGREES_OF_FREEDOM) {
            String why = Text.f("needs more forks: Welch's ν = %.1f ≤ %.0f", interval.degreesOfFreedom(), MIN_DEGREES_OF_FREEDOM);
            return new ChangeEstimate(baselineNs / 1e6, candidateNs / 1e6, changePercent, null, null, sampled,
                    interval.degreesOfFreedom(), why);
        }
        return new ChangeEstimate(baselineNs / 1e6, candidateNs / 1e6, changePercent,
                100 * Math.expm1(interval.low()), 100 * Math.expm1(interval.high()), sampled, interval.degreesOfFreedom(), null);
    }

    private static int fewestPasses(long[][] forks) {
        return Arrays.stream(forks).mapToInt(f -> f.length).min().orElse(0);
    }

    private static double[] forkLogs(long[][] forks, double percentile) {
        return Arrays.stream(forks).mapToDouble(values -> Math.log(quantile(values, percentile))).toArray();
    }

    /**
     * Welch's interval for the difference of two means of {@code kb} and {@code kc} fork values with the given spreads,
     * centred on {@code centre} (log scale); degrees of freedom by Welch-Satterthwaite from the spreads' own.
     */
    static Interval welchInterval(ForkSpread b, int kb, ForkSpread c, int kc, double centre, double confidenceLevel) {
        double vb = b.variance() / kb;
        double vc = c.variance() / kc;
        double se = Math.sqrt(vb + vc);
        if (se == 0) {
            return new Interval(centre, centre, (double) b.degreesOfFreedom() + c.degreesOfFreedom());
        }
        double dof = welchSatterthwaite(vb, b.degreesOfFreedom(), vc, c.degreesOfFreedom());
        double t = new TDistribution(dof).inverseCumulativeProbability(1 - (1 - confidenceLevel) / 2);
        return new Interval(centre - t * se, centre + t * se, dof);
    }

    /**
     * Welch–Satterthwaite: the degrees of freedom of {@code vb + vc}, each a variance of a mean with its own degrees of
     * freedom, {@code (vb + vc)² / (vb²/νb + vc²/νc)}.
     */
    static double welchSatterthwaite(double vb, int dofB, double vc, int dofC) {
        return (vb + vc) * (vb + vc) / (vb * vb / dofB + vc * vc / dofC);
    }

    /** Percentile interval of the log ratio over bootstrap replicates of the passes (single-fork sides). */
    private static Interval bootstrapInterval(long[][] baseline, long[][] candidate, double percentile,
                                              double confidenceLevel, int resamples, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] b = pooledSorted(baseline);
        long[] c = pooledSorted(candidate);
        double[] logRatios = new double[resamples];
        for (int i = 0; i < resamples; i++) {
            logRatios[i] = Math.log(resampleQuantile(c, percentile, random) / resampleQuantile(b, percentile, random));
        }
        Arrays.sort(logRatios);
        double alpha = 1 - confidenceLevel;
        return new Interval(logRatios[(int) Math.floor(alpha / 2 * resamples)],
                logRatios[Math.min(resamples - 1, (int) Math.ceil((1 - alpha / 2) * resamples) - 1)], null);
    }

    /** Each fork's recorded values, one array element per pass, in ascending order. */
    static long[][] expand(List<Histogram> forks) {
        if (forks.isEmpty()) {
            throw new IllegalArgumentException("a side of a comparison needs at least one fork");
        }
        long[][] values = new long[forks.size()][];
        for (int f = 0; f < forks.size(); f++) {
            values[f] = HistogramCodec.sortedValues(forks.get(f));
        }
        return values;
    }

    private static long[] pooledSorted(long[][] forks) {
        long[] all = Arrays.stream(forks).flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    private static double resampleQuantile(long[] values, double percentile, SplittableRandom random) {
        long[] sample = new long[values.length];
        for (int j = 0; j < sample.length; j++) {
            sample[j] = values[random.nextInt(values.length)];
        }
        Arrays.sort(sample);
        return quantile(sample, percentile);
    }

    /** Nearest rank: the smallest value with at least {@code percentile}% of the values at or below it. */
    static double quantile(long[] sorted, double percentile) {
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
