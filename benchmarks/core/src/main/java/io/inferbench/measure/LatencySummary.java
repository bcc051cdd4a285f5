package io.inferbench.measure;

import org.HdrHistogram.Histogram;

/**
 * Tail-first summary of one histogram, in milliseconds.
 *
 * <p>Percentiles are HdrHistogram's {@code getValueAtPercentile}: nearest rank (the smallest recorded value
 * with at least p% of samples at or below it), reported as the highest value equivalent to it at 3
 * significant digits. With n samples, percentiles above {@code 100 * (1 - 1/n)} are the maximum: p99.9 needs
 * at least 1000 passes to differ from {@code max}. {@code mean} and {@code stdev} are HdrHistogram's, and are
 * given only next to the percentiles.
 */
public record LatencySummary(long count, double p50Ms, double p90Ms, double p95Ms, double p99Ms, double p999Ms,
                             double maxMs, double minMs, double meanMs, double stdevMs) {
    private static final double NS_PER_MS = 1_000_000.0;

    public static LatencySummary of(Histogram histogramNs) {
        if (histogramNs.getTotalCount() == 0) {
            throw new IllegalArgumentException("cannot summarise an empty histogram");
        }
        return new LatencySummary(
                histogramNs.getTotalCount(),
                ms(histogramNs.getValueAtPercentile(50)),
                ms(histogramNs.getValueAtPercentile(90)),
                ms(histogramNs.getValueAtPercentile(95)),
                ms(histogramNs.getValueAtPercentile(99)),
                ms(histogramNs.getValueAtPercentile(99.9)),
                ms(histogramNs.getMaxValue()),
                ms(histogramNs.getMinValue()),
                histogramNs.getMean() / NS_PER_MS,
                histogramNs.getStdDeviation() / NS_PER_MS);
    }

    /**
     * The summary of a cell's forks with <b>every fork weighed equally</b>: the percentiles of the mixture in which each
     * fork's passes carry the same total weight, whatever their number. Forks measure until their own stop rule says
     * so, so a fast, steady fork runs more passes than a slow, noisy one; and a fork's JVM (and the machine's state while
     * it ran) shifts its whole distribution. Adding the histograms as they are would let the fork with the most passes
     * decide the percentiles, and so let the stop rule choose them. {@code count} is the passes of all forks; the
     * other fields are the mixture's. With one fork this is {@link #of(Histogram)}.
     */
    public static LatencySummary ofForks(java.util.List<Histogram> forksNs) {
        if (forksNs.size() == 1) {
            return of(forksNs.get(0));
        }
        long largest = forksNs.stream().mapToLong(Histogram::getTotalCount).max().orElse(0);
        Histogram mixture = new Histogram(1, PassRecorder.HIGHEST_TRACKABLE_NS, PassRecorder.SIGNIFICANT_DIGITS);
        long count = 0;
        for (Histogram fork : forksNs) {
            long n = fork.getTotalCount();
            count += n;
            if (n == 0) {
                continue;
            }
            double weight = largest / (double) n;
            for (org.HdrHistogram.HistogramIterationValue v : fork.recordedValues()) {
                mixture.recordValueWithCount(v.getValueIteratedTo(), Math.max(1, Math.round(v.getCountAtValueIteratedTo() * weight)));
            }
        }
        LatencySummary weighted = of(mixture);
        return new LatencySummary(count, weighted.p50Ms, weighted.p90Ms, weighted.p95Ms, weighted.p99Ms, weighted.p999Ms,
                weighted.maxMs, weighted.minMs, weighted.meanMs, weighted.stdevMs);
    }

    private static double ms(long ns) {
        return ns / NS_PER_MS;
    }
}
