package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;
import io.inferbench.option.PropertyValues;

import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The warm-up and stop rules of each cell's measurement in a fork ({@code bench.warmup}, {@code bench.iterations},
 * {@code bench.precision}, {@code bench.resolve} and their caps).
 */
final class MeasureSettings {
    private MeasureSettings() {
    }

    /** The percentiles {@code bench.resolve} accepts, and the passes per fork each needs. */
    static final java.util.Map<String, Integer> RESOLVABLE = java.util.Map.of("p50", 2, "p99", 100, "p99.9", 1000);

    /**
     * The warm-up and stop rules: until steady and until precise, unless {@code bench.warmup} or
     * {@code bench.iterations} fix a count.
     */
    static MeasurePolicy measurePolicy(Properties p) {
        Integer fixedWarmup = Setting.WARMUP.userValue(p).isPresent() ? PropertyValues.nonNegativeInt(Setting.WARMUP, p) : null;
        Integer fixedPasses = Setting.ITERATIONS.userValue(p).isPresent() ? PropertyValues.positiveInt(Setting.ITERATIONS, p) : null;
        double tolerance = PropertyValues.percent(Setting.WARMUP_TOLERANCE, p, 0, 100);
        double precision = PropertyValues.percent(Setting.PRECISION, p, 0, 100);
        if (precision <= 0) {
            throw new BenchmarkException("-D" + Setting.PRECISION.property() + " must be above 0 percent, got "
                    + Setting.PRECISION.value(p) + ": no finite number of passes gives an interval of width 0");
        }
        String resolve = Setting.RESOLVE.value(p);
        Integer minPasses = RESOLVABLE.get(resolve);
        if (minPasses == null) {
            throw new BenchmarkException("-D" + Setting.RESOLVE.property() + "=" + resolve + " is not a percentile a fork can be "
                    + "asked to resolve: expected one of " + new TreeSet<>(RESOLVABLE.keySet()));
        }
        long warmupCapMs = PropertyValues.millis(Setting.WARMUP_CAP_SECONDS, p);
        long measureCapMs = PropertyValues.millis(Setting.MEASURE_CAP_SECONDS, p);
        WarmupPolicy warmup = fixedWarmup != null
                ? new WarmupPolicy(fixedWarmup, tolerance, 0, 1, 0, 0, warmupCapMs)
                : WarmupPolicy.untilSteady(tolerance, warmupCapMs);
        StopPolicy stop = new StopPolicy(fixedPasses, precision, MEASURE_CONFIDENCE, minPasses, MIN_MEASURE_MS, measureCapMs);
        return new MeasurePolicy(warmup, stop);
    }

    /** The confidence of the p50 interval the stop rule tightens. */
    static final double MEASURE_CONFIDENCE = 0.95;
    /**
     * The shortest measurement of a cell in a fork: long enough to sample the machine's periodic disturbances (scheduler
     * ticks, timer interrupts, young collections, other tenants), and to resolve p99 in every fork of a cell whose pass is
     * under 10 ms. Why a second, with measurements: docs/statistics-and-compare.md, "The shortest measurement".
     */
    static final long MIN_MEASURE_MS = 1000;
}
