package io.inferbench.analysis;

import io.inferbench.cli.Settings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Synthetic series with known ground truth, realistic noise and fixed seeds. */
class BatchScalingAnalyzerTest {
    private static final List<Integer> BATCHES = List.of(1, 2, 3, 4, 5, 6, 7, 8);
    private static final int SEEDS = 25;

    /** A series p50(B) = truth(B) * (1 + relativeNoise * N(0,1)), with p99 a little above and matching throughput. */
    static List<LatencyPoint> series(IntToDoubleFunction truthMs, double relativeNoise, long seed) {
        Random random = new Random(seed);
        List<LatencyPoint> points = new ArrayList<>();
        for (int b : BATCHES) {
            double p50 = truthMs.applyAsDouble(b) * (1 + relativeNoise * random.nextGaussian());
            points.add(new LatencyPoint("onnxruntime", "cpu", "tiny", 128, b, p50, p50 * 1.1, p50 * 1.3, b * 1000 / p50, 0.05));
        }
        return points;
    }

    private static SeriesFit fit(List<LatencyPoint> points) {
        Analysis analysis = BatchScalingAnalyzer.analyze(points, Settings.defaultRegime());
        assertEquals(1, analysis.fits().size());
        return analysis.fits().get(0);
    }

    @Test
    void fifteenToSixteenMsIsMemoryBound() {
        for (long seed = 12345; seed < 12345 + SEEDS; seed++) {
            SeriesFit f = fit(series(b -> 15 + (b - 1) / 7.0, 0.01, seed));
            assertEquals(Regime.MEMORY_BOUND, f.regime(), "seed " + seed + ": " + f.reason());
        }
    }

    @Test
    void doublingFromBatchOneToTwoAndOnLinearlyIsComputeBound() {
        for (long seed = 12345; seed < 12345 + SEEDS; seed++) {
            SeriesFit f = fit(series(b -> 5.0 * b, 0.02, seed));
            assertEquals(Regime.COMPUTE_BOUND, f.regime(), "seed " + seed + ": " + f.reason());
            assertEquals(5.0, f.marginalCostMsPerSample(), 0.3, "slope");
        }
    }

    /**
     * ρ = 0.70 exactly (T(B) = 0.3 + 0.7 B, so T(1) = 1 and the slope is 0.7 per sample), with noise: whichever side the
     * estimate falls, when its interval crosses 0.70 the verdict says so and names the regime across the line, and
     * when it does not (noise at batch 1 moves ρ), it is not labelled.
     */
    @Test
    void aVerdictWhoseRhoIntervalCrossesAThresholdIsLabelledBorderline() {
        int crossing = 0;
        for (long seed = 12345; seed < 12345 + SEEDS; seed++) {
            SeriesFit f = fit(series(b -> 0.3 + 0.7 * b, 0.03, seed));
            boolean crosses = f.relativeMarginalCostCiLow() < 0.70 && 0.70 < f.relativeMarginalCostCiHigh();
            if (!crosses) {
                assertEquals(Boolean.FALSE, f.borderline(), "seed " + seed + ": " + f.reason());
                continue;
            }
            crossing++;
            assertEquals(Boolean.TRUE, f.borderline(), "seed " + seed + ": " + f.reason());
            if (f.regime() == Regime.COMPUTE_BOUND) {
                assertEquals(List.of(Regime.TRANSITIONAL), f.borderlineWith());
                assertEquals("compute-bound, borderline", f.verdictLabel());
            } else {
                assertEquals(Regime.TRANSITIONAL, f.regime(), f.reason());
                assertEquals(List.of(Regime.COMPUTE_BOUND), f.borderlineWith());
            }
            assertTrue(f.reason().endsWith("borderline: rho's 95% interval crosses 0.70"), f.reason());
            assertTrue(f.consistentWith(Regime.TRANSITIONAL) && f.consistentWith(Regime.COMPUTE_BOUND));
        }
        assertTrue(crossing >= SEEDS / 2, crossing + " of " + SEEDS + " seeds crossed 0.70: the case under test must occur");
    }

    @Test
    void aVerdictClearOfTheThresholdsIsNotBorderline() {
        SeriesFit f = fit(series(b -> 5.0 * b, 0.01, 12345));
        assertEquals(Boolean.FALSE, f.borderline());
        assertEquals(List.of(), f.borderlineWith());
        assertEquals("compute-bound", f.verdictLabel());
        assertTrue(!f.consistentWith(Regime.TRANSITIONAL));
    }

    @Test
    void computeBoundWithAFixedOverheadIsStillComputeBound() {
        SeriesFit f = fit(series(b -> 0.8 + 4.0 * b, 0.02, 12345));
        assertEquals(Regime.COMPUTE_BOUND, f.regime(), f.reason());
        assertEquals(0.8, f.fixedCostMs(), 0.6);
    }

    @Test
    void flatThenLinearWithItsKneeAtFourIsTransitionalWithKneeFourPlusMinusOne() {
        for (long seed = 12345; seed < 12345 + SEEDS; seed++) {
            SeriesFit f = fit(series(b -> b <= 4 ? 10.0 : 10.0 + 2.5 * (b - 4), 0.01, seed));
            assertEquals(Regime.TRANSITIONAL, f.regime(), "seed " + seed + ": " + f.reason());
            assertNotNull(f.kneeBatch(), "seed " + seed);
            assertTrue(Math.abs(f.kneeBatch() - 4) <= 1, "seed " + seed + ": knee " + f.kneeBatch());
        }
    }

    @Test
    void pureNoiseIsInconclusive() {
        for (long seed = 12345; seed < 12345 + SEEDS; seed++) {
            SeriesFit f = fit(series(b -> 10.0, 0.3, seed));
            assertEquals(Regime.INCONCLUSIVE, f.regime(), "seed " + seed + ": " + f.reason());
        }
    }

    @Test
    void aSeriesThatIsNotMonotonicIsInconclusiveAndSaysSo() {
        double[] p50 = {10, 20, 30, 15, 40, 50, 60, 70};
        SeriesFit f = fit(series(b -> p50[b - 1], 0, 1));
        assertEquals(Regime.INCONCLUSIVE, f.regime());
        assertTrue(f.reason().startsWith("not monotonic: p50 falls to 15.000 ms at batch 4"), f.reason());
    }

    @Test
    void tooFewBatchSizesIsInconclusive() {
        SeriesFit f = fit(series(b -> 5.0 * b, 0, 1).subList(0, 2));
        assertEquals(Regime.INCONCLUSIVE, f.regime());
        assertTrue(f.reason().contains("at least 3"), f.reason());
    }

    @Test
    void thresholdsAreHonoured() {
        List<LatencyPoint> points = series(b -> 10 + 1.0 * b, 0, 1); // rho = 1 / 11 = 0.09
        assertEquals(Regime.MEMORY_BOUND, BatchScalingAnalyzer.analyze(points, Settings.defaultRegime()).fits().get(0).regime());
        RegimeThresholds strict = new RegimeThresholds(0.05, 0.7, 0.1, 0.15, 0.5, 0.95);
        assertEquals(Regime.TRANSITIONAL, BatchScalingAnalyzer.analyze(points, strict).fits().get(0).regime());
    }

    @Test
    void fitMatchesClosedFormLeastSquares() {
        List<LatencyPoint> points = series(b -> 3 + 2.0 * b, 0.05, 12345);
        SeriesFit f = fit(points);
        int n = points.size();
        double meanX = points.stream().mapToDouble(LatencyPoint::batch).average().orElseThrow();
        double meanY = points.stream().mapToDouble(LatencyPoint::p50Ms).average().orElseThrow();
        double sxx = 0;
        double sxy = 0;
        double syy = 0;
        for (LatencyPoint p : points) {
            sxx += (p.batch() - meanX) * (p.batch() - meanX);
            sxy += (p.batch() - meanX) * (p.p50Ms() - meanY);
            syy += (p.p50Ms() - meanY) * (p.p50Ms() - meanY);
        }
        double slope = sxy / sxx;
        double intercept = meanY - slope * meanX;
        double sse = syy - slope * sxy;
        double tQuantile975With6Dof = 2.446912; // Student's t table, 0.975 quantile, 6 degrees of freedom
        double halfWidth = tQuantile975With6Dof * Math.sqrt(sse / (n - 2) / sxx);

        assertEquals(slope, f.p50Fit().slopeMsPerSample(), 1e-12);
        assertEquals(intercept, f.p50Fit().interceptMs(), 1e-12);
        assertEquals(1 - sse / syy, f.p50Fit().rSquared(), 1e-12);
        assertEquals(slope - halfWidth, f.p50Fit().slopeCiLowMsPerSample(), 1e-6);
        assertEquals(slope + halfWidth, f.p50Fit().slopeCiHighMsPerSample(), 1e-6);
        assertEquals(f.p50Fit().interceptMs(), f.fixedCostMs());
        assertEquals(f.p50Fit().slopeMsPerSample(), f.marginalCostMsPerSample());
    }

    @Test
    void efficiencyAndThroughputGainFollowTheirDefinitions() {
        List<LatencyPoint> points = series(b -> 10 + 2.0 * (b - 1), 0, 1);
        SeriesFit f = fit(points);
        for (int i = 0; i < BATCHES.size(); i++) {
            int b = BATCHES.get(i);
            double tb = 10 + 2.0 * (b - 1);
            assertEquals(10 * b / tb, f.scalingEfficiency().get(i), 1e-12, "efficiency at batch " + b);
            assertEquals((b / tb) / (1 / 10.0), f.throughputGain().get(i), 1e-12, "throughput gain at batch " + b);
        }
    }

    @Test
    void seqScalingRecoversThePowerLawExponent() {
        List<LatencyPoint> points = new ArrayList<>();
        for (int seq : new int[] {64, 128, 256, 512}) {
            double p50 = 0.002 * Math.pow(seq, 1.5);
            points.add(new LatencyPoint("onnxruntime", "cpu", "tiny", seq, 1, p50, p50, p50, 1000 / p50, 0.01));
        }
        SeqScalingFit f = BatchScalingAnalyzer.analyze(points, Settings.defaultRegime()).seqScaling().get(0);
        assertEquals(1.5, f.exponent(), 1e-9);
        assertEquals(1.0, f.rSquared(), 1e-9);
    }
}
