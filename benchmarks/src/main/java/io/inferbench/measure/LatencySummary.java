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

    private static double ms(long ns) {
        return ns / NS_PER_MS;
    }
}
