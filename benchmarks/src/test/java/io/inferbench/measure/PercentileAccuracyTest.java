package io.inferbench.measure;

import io.inferbench.engine.InferenceSession;
import io.inferbench.engine.TokenBatch;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** HdrHistogram percentiles against an exact sort of the same samples, and the recorder's phase split. */
class PercentileAccuracyTest {
    /** 3 significant digits: a recorded value is kept to within 1 part in 1024 (2048 sub-buckets, half used). */
    private static final double RELATIVE_PRECISION = 1.0 / 1024;

    @Test
    void percentilesMatchExactSortWithinStatedPrecision() {
        Random random = new Random(12345);
        long[] samplesNs = new long[20_000];
        Histogram histogram = PassRecorder.newHistogram();
        for (int i = 0; i < samplesNs.length; i++) {
            // Log-normal around 5 ms with a heavy right tail, like real latencies.
            samplesNs[i] = Math.round(5_000_000 * Math.exp(0.4 * random.nextGaussian()));
            histogram.recordValue(samplesNs[i]);
        }
        long[] sorted = samplesNs.clone();
        Arrays.sort(sorted);
        LatencySummary summary = LatencySummary.of(histogram);

        double[] percentiles = {50, 90, 95, 99, 99.9};
        double[] reported = {summary.p50Ms(), summary.p90Ms(), summary.p95Ms(), summary.p99Ms(), summary.p999Ms()};
        for (int i = 0; i < percentiles.length; i++) {
            double exactMs = nearestRank(sorted, percentiles[i]) / 1e6;
            assertEquals(exactMs, reported[i], exactMs * RELATIVE_PRECISION,
                    "p" + percentiles[i] + ": exact " + exactMs + " ms, HdrHistogram " + reported[i] + " ms");
        }
        assertEquals(sorted[sorted.length - 1] / 1e6, summary.maxMs(), sorted[sorted.length - 1] / 1e6 * RELATIVE_PRECISION);
        assertEquals(sorted[0] / 1e6, summary.minMs(), sorted[0] / 1e6 * RELATIVE_PRECISION);

        DescriptiveStatistics exact = new DescriptiveStatistics();
        Arrays.stream(samplesNs).forEach(v -> exact.addValue(v / 1e6));
        assertEquals(exact.getMean(), summary.meanMs(), exact.getMean() * RELATIVE_PRECISION);
        double populationSd = Math.sqrt(exact.getPopulationVariance());
        assertEquals(populationSd, summary.stdevMs(), populationSd * 0.01);
    }

    /** Nearest-rank percentile: the smallest value with at least p% of the samples at or below it. */
    private static long nearestRank(long[] sorted, double percentile) {
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    @Test
    void percentilesAreOrdered() {
        Histogram histogram = PassRecorder.newHistogram();
        new Random(12345).longs(999, 1_000, 50_000_000).forEach(histogram::recordValue);
        LatencySummary s = LatencySummary.of(histogram);
        List<Double> ordered = List.of(s.minMs(), s.p50Ms(), s.p90Ms(), s.p95Ms(), s.p99Ms(), s.p999Ms(), s.maxMs());
        for (int i = 1; i < ordered.size(); i++) {
            assertTrue(ordered.get(i - 1) <= ordered.get(i), "not ordered: " + ordered);
        }
    }

    @Test
    void codecRoundTripsEveryCount() {
        Histogram histogram = PassRecorder.newHistogram();
        new Random(12345).longs(5_000, 10_000, 900_000_000).forEach(histogram::recordValue);
        Histogram decoded = HistogramCodec.decode(HistogramCodec.encode(histogram));
        assertEquals(histogram, decoded);
        assertEquals(LatencySummary.of(histogram), LatencySummary.of(decoded));
    }

    @Test
    void warmupPassesNeverReachTheMeasuredHistogram() {
        PassRecorder recorder = new PassRecorder();
        CountingSession session = new CountingSession();
        recorder.beginPhase(PassRecorder.Phase.WARMUP);
        for (int i = 0; i < 7; i++) {
            recorder.timePass(session::forward);
        }
        recorder.beginPhase(PassRecorder.Phase.MEASUREMENT);
        for (int i = 0; i < 13; i++) {
            recorder.timePass(session::forward);
        }
        assertEquals(7, recorder.warmupNs().getTotalCount());
        assertEquals(13, recorder.measuredNs().getTotalCount());
        assertEquals(20, session.calls);
    }

    @Test
    void forksWeighEquallyWhateverTheirNumberOfPasses() {
        // A fast, steady fork ran 1000 passes at 1 ms; a slow JVM's fork ran 10 at 2 ms. Added as they are, the slow fork
        // would be 1% of the cell; weighed equally, it is half of it.
        Histogram fast = PassRecorder.newHistogram();
        fast.recordValueWithCount(1_000_000, 1000);
        Histogram slow = PassRecorder.newHistogram();
        slow.recordValueWithCount(2_000_000, 10);
        LatencySummary equal = LatencySummary.ofForks(List.of(fast, slow));
        assertEquals(1010, equal.count(), "every pass is counted");
        assertEquals(1.0, equal.p50Ms(), 0.001);
        assertEquals(2.0, equal.p90Ms(), 0.002, "the upper half of the mixture is the slow fork");
        assertEquals(1.5, equal.meanMs(), 0.002);
        Histogram added = PassRecorder.newHistogram();
        added.add(fast);
        added.add(slow);
        assertEquals(1.0, LatencySummary.of(added).p90Ms(), 0.001, "added as they are, the slow fork vanishes below p99");
        assertEquals(LatencySummary.of(fast), LatencySummary.ofForks(List.of(fast)), "one fork is itself");
    }

    /** A session that only counts calls; the recorder must call forward exactly once per pass. */
    private static final class CountingSession implements InferenceSession {
        int calls;

        @Override
        public io.inferbench.inputs.InputPlan inputs() {
            return new io.inferbench.inputs.InputPlan(List.of(), "batch", "sequence", java.util.Map.of(), -1, -1, null, null);
        }






        @Override
        public java.util.List<io.inferbench.engine.OutputSpec> outputs() {
            return java.util.List.of();
        }

        @Override
        public io.inferbench.engine.SessionFacts facts(String engineVersion) {
            return new io.inferbench.engine.SessionFacts("none", 1, 1, engineVersion, "none", "none", "none");
        }

        @Override
        public String sharing() {
            return "none";
        }

        @Override
        public void prepare(TokenBatch batch) {
        }

        @Override
        public Runner newRunner() {
            throw new UnsupportedOperationException("one caller");
        }

        @Override
        public long forward() {
            return ++calls;
        }

        @Override
        public void close() {
        }
    }
}
