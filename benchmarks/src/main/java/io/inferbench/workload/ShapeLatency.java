package io.inferbench.workload;

import io.inferbench.Text;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The latency of a pass at any (sequence length, batch) shape for one engine, device and model, from its sweep cells:
 *
 * <ul>
 *   <li>a shape the sweep measured: that cell's own passes;</li>
 *   <li>another sequence length at a measured batch size: the nearest measured length's passes, scaled by the power law
 *       {@code p50 = c * seq^k} fitted on log-log axes to the cells of that batch size (as the run's seqScaling fit).
 *       Beyond the measured lengths that is an extrapolation, and {@link #describe} says over which range it was
 *       fitted.</li>
 * </ul>
 * The power law also prices a request's compute for "wasted compute" and the bucket advisor.
 */
public final class ShapeLatency {
    private final Map<Integer, TreeMap<Integer, long[]>> passesByBatchThenSeq = new TreeMap<>();
    private final Map<Integer, double[]> powerLawByBatch = new TreeMap<>();

    private ShapeLatency() {
    }

    /** Null when the run measured nothing for this engine, device and model. */
    public static ShapeLatency of(RunResult run, String backend, String device, String model) {
        ShapeLatency latency = new ShapeLatency();
        for (CellResult c : run.cells()) {
            if (c.measured() && c.backend().equals(backend) && c.device().equals(device) && c.model().equals(model)) {
                latency.passesByBatchThenSeq.computeIfAbsent(c.batch(), b -> new TreeMap<>())
                        .put(c.seqLen(), HistogramCodec.sortedValues(HistogramCodec.decode(c.histogramNs())));
            }
        }
        if (latency.passesByBatchThenSeq.isEmpty()) {
            return null;
        }
        latency.passesByBatchThenSeq.forEach((batch, bySeq) -> {
            if (bySeq.size() >= 2) {
                SimpleRegression fit = new SimpleRegression(true);
                bySeq.forEach((seq, passes) -> fit.addData(Math.log(seq), Math.log(quantile(passes, 0.5) / 1e6)));
                latency.powerLawByBatch.put(batch, new double[] {fit.getIntercept(), fit.getSlope()});
            }
        });
        return latency;
    }

    /** True when lengths other than the measured ones can be priced at this batch size. */
    public boolean fitted(int batch) {
        return powerLawByBatch.containsKey(batch);
    }

    public boolean measured(int seq, int batch) {
        TreeMap<Integer, long[]> bySeq = passesByBatchThenSeq.get(batch);
        return bySeq != null && bySeq.containsKey(seq);
    }

    public java.util.Set<Integer> batches() {
        return passesByBatchThenSeq.keySet();
    }

    /** The power law's p50 at {@code seq} (ms), or the measured p50 where there is no fit. */
    public double p50Ms(int seq, int batch) {
        return quantileMs(seq, batch, 0.5);
    }

    /** The {@code u}-quantile of a pass at this shape, in ms. */
    public double quantileMs(int seq, int batch, double u) {
        TreeMap<Integer, long[]> bySeq = passesByBatchThenSeq.get(batch);
        long[] exact = bySeq.get(seq);
        if (exact != null) {
            return quantile(exact, u) / 1e6;
        }
        Map.Entry<Integer, long[]> nearest = nearest(bySeq, seq);
        double scale = fitted(batch) ? powerLawMs(seq, batch) / powerLawMs(nearest.getKey(), batch) : seq / (double) nearest.getKey();
        return quantile(nearest.getValue(), u) * scale / 1e6;
    }

    /** A pass drawn at random from this shape's distribution, in ms. */
    public double sampleMs(int seq, int batch, SplittableRandom random) {
        return quantileMs(seq, batch, random.nextDouble());
    }

    /** The fitted power law {@code c * seq^k} at batch {@code batch}, in ms (NaN without a fit). */
    public double powerLawMs(double seq, int batch) {
        double[] law = powerLawByBatch.get(batch);
        return law == null ? Double.NaN : Math.exp(law[0] + law[1] * Math.log(seq));
    }

    /** The measured batch size nearest to {@code batch} that has a fit, or -1. */
    public int nearestFittedBatch(int batch) {
        return powerLawByBatch.keySet().stream().min((a, b) -> Integer.compare(Math.abs(a - batch), Math.abs(b - batch))).orElse(-1);
    }

    /** How latency at unmeasured shapes is obtained, with the fit's range and exponent. */
    public String describe(int batch) {
        TreeMap<Integer, long[]> bySeq = passesByBatchThenSeq.get(batch);
        if (!fitted(batch)) {
            return "batch " + batch + ": only seq " + (bySeq == null ? "[]" : bySeq.keySet()) + " measured; other lengths scaled "
                    + "in proportion to tokens";
        }
        return Text.f("batch %d: measured at seq %s; other lengths from the nearest measured one, scaled by p50 = %.4g * seq^%.3f "
                + "(fitted on those, an extrapolation beyond %d)", batch, bySeq.keySet(), Math.exp(powerLawByBatch.get(batch)[0]),
                powerLawByBatch.get(batch)[1], bySeq.lastKey());
    }

    private static Map.Entry<Integer, long[]> nearest(TreeMap<Integer, long[]> bySeq, int seq) {
        Map.Entry<Integer, long[]> below = bySeq.floorEntry(seq);
        Map.Entry<Integer, long[]> above = bySeq.ceilingEntry(seq);
        if (below == null) {
            return above;
        }
        if (above == null) {
            return below;
        }
        return seq - below.getKey() <= above.getKey() - seq ? below : above;
    }

    private static double quantile(long[] sorted, double u) {
        int rank = (int) Math.ceil(u * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(rank, 1)) - 1];
    }
}
