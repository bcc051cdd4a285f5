package io.inferbench.analysis;

import io.inferbench.Text;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;

/**
 * Fits latency against batch for every series and classifies its regime.
 *
 * <p>The rule, applied in this order to the per-batch p50 (thresholds in {@link RegimeThresholds}):
 * <ol>
 *   <li><b>inconclusive</b> if the series has fewer than 3 batch sizes;</li>
 *   <li><b>inconclusive</b> if p50 is not monotonic: it falls more than {@code monotonicTolerance} below the
 *       highest p50 of any smaller batch;</li>
 *   <li><b>inconclusive</b> if it is too noisy: the residual standard error of the better of the line and the
 *       hinge is more than {@code maxRelativeResidual} of the mean p50;</li>
 *   <li><b>transitional</b>, with its knee, if the flat-then-rising hinge removes at least
 *       {@code kneeMinImprovement} of the line's squared error and rises after the knee with ρ (per-sample
 *       cost after the knee over per-sample cost at the knee) at least {@code memoryBoundMaxRho};</li>
 *   <li><b>memory-bound</b> if ρ ≤ {@code memoryBoundMaxRho}, <b>compute-bound</b> if ρ ≥
 *       {@code computeBoundMinRho}; but <b>inconclusive</b> if ρ's confidence interval reaches the other
 *       regime's threshold (it straddles both);</li>
 *   <li><b>transitional</b> otherwise: latency grows, but less than in proportion to batch.</li>
 * </ol>
 */
public final class BatchScalingAnalyzer {
    private BatchScalingAnalyzer() {
    }

    public static Analysis analyze(List<LatencyPoint> points, RegimeThresholds thresholds) {
        List<SeriesFit> fits = new ArrayList<>();
        for (List<LatencyPoint> s : series(points, LatencyPoint::seqLen, LatencyPoint::batch)) {
            fits.add(fitSeries(s, thresholds));
        }
        return new Analysis(thresholds, fits, seqScaling(points, thresholds));
    }

    static SeriesFit fitSeries(List<LatencyPoint> series, RegimeThresholds th) {
        LatencyPoint first = series.get(0);
        List<Integer> batches = series.stream().map(LatencyPoint::batch).toList();
        List<Double> p50 = series.stream().map(LatencyPoint::p50Ms).toList();
        List<Double> p99 = series.stream().map(LatencyPoint::p99Ms).toList();
        if (batches.size() < 2) {
            return new SeriesFit(series(first), new SeriesFit.Points(batches, p50, p99), SeriesFit.Lines.NONE,
                    SeriesFit.Marginal.NONE, new SeriesFit.Gains(List.of(1.0), List.of(1.0)), null, null,
                    new SeriesFit.Verdict(Regime.INCONCLUSIVE, "only 1 batch size: a regime needs at least 3",
                            Regime.INCONCLUSIVE.advice(), false, List.of()));
        }
        LinearFit p50Fit = LinearFit.of(batches, p50, th.confidenceLevel());
        LinearFit p99Fit = LinearFit.of(batches, p99, th.confidenceLevel());

        int b0 = batches.get(0);
        double perSampleAtB0 = p50.get(0) / b0;
        List<Double> efficiency = new ArrayList<>();
        List<Double> gain = new ArrayList<>();
        for (LatencyPoint p : series) {
            efficiency.add(p50.get(0) * ((double) p.batch() / b0) / p.p50Ms());
            gain.add(p.samplesPerSecond() / first.samplesPerSecond());
        }
        Double rho = LinearFit.finite(p50Fit.slopeMsPerSample() / perSampleAtB0);
        Double rhoLow = p50Fit.slopeCiLowMsPerSample() == null ? null : p50Fit.slopeCiLowMsPerSample() / perSampleAtB0;
        Double rhoHigh = p50Fit.slopeCiHighMsPerSample() == null ? null : p50Fit.slopeCiHighMsPerSample() / perSampleAtB0;

        double lineSse = p50Fit.residualStdErrorMs() * p50Fit.residualStdErrorMs() * Math.max(1, batches.size() - 2);
        KneeFit knee = batches.size() >= 4 ? KneeFit.best(batches, p50, lineSse) : null;

        Verdict verdict = classify(batches, p50, p50Fit, knee, rho, rhoLow, rhoHigh, th);
        return new SeriesFit(series(first), new SeriesFit.Points(batches, p50, p99),
                new SeriesFit.Lines(p50Fit, p99Fit, p50Fit.interceptMs(), p50Fit.slopeMsPerSample()),
                new SeriesFit.Marginal(rho, rhoLow, rhoHigh), new SeriesFit.Gains(efficiency, gain), knee, verdict.kneeBatch(),
                new SeriesFit.Verdict(verdict.regime(), verdict.reason(), verdict.regime().advice(),
                        !verdict.borderlineWith().isEmpty(), verdict.borderlineWith()));
    }

    private static SeriesKey series(LatencyPoint p) {
        return new SeriesKey(p.backend(), p.device(), p.model(), p.seqLen());
    }

    private record Verdict(Regime regime, Integer kneeBatch, String reason, List<Regime> borderlineWith) {
        Verdict(Regime regime, Integer kneeBatch, String reason) {
            this(regime, kneeBatch, reason, List.of());
        }
    }

    /**
     * A verdict that rests on ρ, labelled borderline when ρ's interval crosses a threshold: for each threshold strictly
     * inside [low, high], the regime on its other side is named, and the reason says which threshold.
     */
    private static Verdict onRho(Regime regime, String reason, Double rhoLow, Double rhoHigh, RegimeThresholds th) {
        if (rhoLow == null || rhoHigh == null) {
            return new Verdict(regime, null, reason);
        }
        List<Regime> across = new ArrayList<>();
        List<String> crossed = new ArrayList<>();
        if (rhoLow < th.memoryBoundMaxRho() && th.memoryBoundMaxRho() < rhoHigh) {
            across.add(regime == Regime.MEMORY_BOUND ? Regime.TRANSITIONAL : Regime.MEMORY_BOUND);
            crossed.add(Text.f("%.2f", th.memoryBoundMaxRho()));
        }
        if (rhoLow < th.computeBoundMinRho() && th.computeBoundMinRho() < rhoHigh) {
            across.add(regime == Regime.COMPUTE_BOUND ? Regime.TRANSITIONAL : Regime.COMPUTE_BOUND);
            crossed.add(Text.f("%.2f", th.computeBoundMinRho()));
        }
        across.remove(regime);
        if (crossed.isEmpty()) {
            return new Verdict(regime, null, reason);
        }
        return new Verdict(regime, null, reason + Text.f("; borderline: rho's %.0f%% interval crosses %s", 100 * th.confidenceLevel(),
                String.join(" and ", crossed)), List.copyOf(new java.util.LinkedHashSet<>(across)));
    }

    private static Verdict classify(List<Integer> batches, List<Double> p50, LinearFit line, KneeFit knee,
                                    Double rho, Double rhoLow, Double rhoHigh, RegimeThresholds th) {
        if (batches.size() < 3) {
            return new Verdict(Regime.INCONCLUSIVE, null, "only " + batches.size() + " batch size(s): a regime needs at least 3");
        }
        double highest = p50.get(0);
        for (int i = 1; i < p50.size(); i++) {
            if (p50.get(i) < highest * (1 - th.monotonicTolerance())) {
                return new Verdict(Regime.INCONCLUSIVE, null, Text.f("not monotonic: p50 falls to %.3f ms at batch %d, "
                                + "%.0f%% below %.3f ms at a smaller batch (tolerance %.0f%%)", p50.get(i), batches.get(i),
                        100 * (1 - p50.get(i) / highest), highest, 100 * th.monotonicTolerance()));
            }
            highest = Math.max(highest, p50.get(i));
        }
        double mean = p50.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double residual = Math.min(line.residualStdErrorMs(), knee == null ? Double.POSITIVE_INFINITY : knee.residualStdErrorMs());
        if (residual / mean > th.maxRelativeResidual()) {
            return new Verdict(Regime.INCONCLUSIVE, null, Text.f("too noisy: residual standard error %.3f ms is %.0f%% of the "
                    + "mean p50 (limit %.0f%%)", residual, 100 * residual / mean, 100 * th.maxRelativeResidual()));
        }
        if (knee != null && knee.improvementOverLine() >= th.kneeMinImprovement()) {
            double kneeRho = knee.risingMsPerSample() / (knee.flatMs() / knee.kneeBatch());
            if (kneeRho >= th.memoryBoundMaxRho()) {
                return new Verdict(Regime.TRANSITIONAL, knee.kneeBatch(), Text.f("flat at %.3f ms up to batch %d, then "
                                + "+%.3f ms per sample (rho after the knee %.2f); the hinge removes %.0f%% of the line's squared error",
                        knee.flatMs(), knee.kneeBatch(), knee.risingMsPerSample(), kneeRho, 100 * knee.improvementOverLine()));
            }
        }
        String growth = Text.f("p50 %.3f ms at batch %d to %.3f ms at batch %d; rho = %.3f [%s, %s]", p50.get(0),
                batches.get(0), p50.get(p50.size() - 1), batches.get(batches.size() - 1), rho,
                Text.number(rhoLow), Text.number(rhoHigh));
        if (rho <= th.memoryBoundMaxRho()) {
            if (rhoHigh != null && rhoHigh >= th.computeBoundMinRho()) {
                return new Verdict(Regime.INCONCLUSIVE, null, "the confidence interval straddles the thresholds: " + growth);
            }
            return onRho(Regime.MEMORY_BOUND, Text.f("nearly flat: %s <= %.2f", growth, th.memoryBoundMaxRho()), rhoLow, rhoHigh, th);
        }
        if (rho >= th.computeBoundMinRho()) {
            if (rhoLow != null && rhoLow <= th.memoryBoundMaxRho()) {
                return new Verdict(Regime.INCONCLUSIVE, null, "the confidence interval straddles the thresholds: " + growth);
            }
            return onRho(Regime.COMPUTE_BOUND, Text.f("proportional to batch: %s >= %.2f", growth, th.computeBoundMinRho()), rhoLow,
                    rhoHigh, th);
        }
        Integer kneeBatch = knee != null && knee.improvementOverLine() > 0 ? knee.kneeBatch() : null;
        Verdict byRho = onRho(Regime.TRANSITIONAL, Text.f("grows less than in proportion to batch: %s, between %.2f and %.2f",
                growth, th.memoryBoundMaxRho(), th.computeBoundMinRho()), rhoLow, rhoHigh, th);
        return new Verdict(byRho.regime(), kneeBatch, byRho.reason(), byRho.borderlineWith());
    }

    static List<SeqScalingFit> seqScaling(List<LatencyPoint> points, RegimeThresholds th) {
        List<SeqScalingFit> fits = new ArrayList<>();
        for (List<LatencyPoint> s : series(points, LatencyPoint::batch, LatencyPoint::seqLen)) {
            if (s.size() < 2) {
                continue;
            }
            SimpleRegression logLog = new SimpleRegression(true);
            s.forEach(p -> logLog.addData(Math.log(p.seqLen()), Math.log(p.p50Ms())));
            double exponent = logLog.getSlope();
            Double low = null;
            Double high = null;
            if (s.size() >= 3) {
                double halfWidth = logLog.getSlopeConfidenceInterval(1 - th.confidenceLevel());
                low = LinearFit.finite(exponent - halfWidth);
                high = LinearFit.finite(exponent + halfWidth);
            }
            LatencyPoint p = s.get(0);
            fits.add(new SeqScalingFit(p.backend(), p.device(), p.model(), p.batch(),
                    s.stream().map(LatencyPoint::seqLen).toList(), s.stream().map(LatencyPoint::p50Ms).toList(),
                    exponent, low, high, LinearFit.finite(logLog.getRSquare())));
        }
        return fits;
    }

    /**
     * Points grouped into series that share backend, device, model and the {@code fixed} axis, each ordered along the
     * {@code varying} axis; series in a stable order. For batch scaling the fixed axis is the sequence length, so a
     * group is exactly a {@link SeriesKey}; for sequence-length scaling it is the batch size.
     */
    private record Group(String backend, String device, String model, int fixed) {
    }

    private static List<List<LatencyPoint>> series(List<LatencyPoint> points, ToIntFunction<LatencyPoint> fixed,
                                                   ToIntFunction<LatencyPoint> varying) {
        Map<Group, List<LatencyPoint>> series = points.stream()
                .sorted(Comparator.comparing(LatencyPoint::backend).thenComparing(LatencyPoint::device)
                        .thenComparing(LatencyPoint::model).thenComparingInt(fixed).thenComparingInt(varying))
                .collect(Collectors.groupingBy(p -> new Group(p.backend(), p.device(), p.model(), fixed.applyAsInt(p)),
                        LinkedHashMap::new, Collectors.toList()));
        return List.copyOf(series.values());
    }

}
