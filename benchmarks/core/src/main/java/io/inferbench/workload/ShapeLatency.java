package io.inferbench.workload;

import io.inferbench.Text;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.results.CellResult;
import io.inferbench.results.ProfileResult;
import io.inferbench.results.RunResult;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The latency of a pass at any (sequence length, batch) shape for one engine, device and model, from its sweep cells:
 *
 * <ul>
 *   <li>a shape the sweep measured: that cell's own passes;</li>
 *   <li>another sequence length at a measured batch size: the nearest measured length's passes, scaled by the ratio of
 *       the cost model's p50 at the two lengths.</li>
 * </ul>
 *
 * <p><b>The cost model</b> ({@link #costMs}) prices a pass at a length for the bucket advisor and "wasted compute": the
 * measured p50s, joined by straight lines between measured lengths (made non-decreasing, as a longer input is never
 * cheaper); below the smallest measured length, a straight line down to the model's fixed cost per call at length 0;
 * beyond the largest, the last segment's slope, an extrapolation ({@link #extrapolated}). The fixed cost per call is what
 * a pass costs whatever its input: the profile's floor for the model where the run has one, otherwise the intercept of
 * the p50-against-batch fit at the smallest measured length (at most that cell's p50), otherwise 0, which prices short
 * requests as if tokens were all a pass cost (flattering small buckets), and {@link #describe} says so. A power law
 * with no intercept, as this used before, sends the cost of short inputs to zero.
 */
public final class ShapeLatency {
    private final Map<Integer, TreeMap<Integer, long[]>> passesByBatchThenSeq = new TreeMap<>();
    private final Map<Integer, TreeMap<Integer, Double>> knotsByBatch = new java.util.HashMap<>();
    private final double fixedCostMs;
    private final String fixedCostSource;

    private ShapeLatency(double fixedCostMs, String fixedCostSource) {
        this.fixedCostMs = fixedCostMs;
        this.fixedCostSource = fixedCostSource;
    }

    /** Null when the run measured nothing for this engine, device and model. */
    public static ShapeLatency of(RunResult run, String backend, String device, String model) {
        TreeMap<Integer, TreeMap<Integer, long[]>> cells = new TreeMap<>();
        for (CellResult c : run.cells()) {
            if (c.measured() && c.backend().equals(backend) && c.device().equals(device) && c.model().equals(model)) {
                cells.computeIfAbsent(c.batch(), b -> new TreeMap<>())
                        .put(c.seqLen(), HistogramCodec.sortedValues(HistogramCodec.decode(c.histogramNs())));
            }
        }
        if (cells.isEmpty()) {
            return null;
        }
        double fixed = 0;
        String source = "unknown, taken as 0: lengths under the smallest measured one are priced in proportion to tokens";
        ProfileResult.ModelFloor floor = run.profile() == null || run.profile().floors() == null ? null
                : run.profile().floors().stream().filter(f -> f.backend().equals(backend) && f.device().equals(device)
                        && f.model().equals(model)).findFirst().orElse(null);
        TreeMap<Integer, long[]> batchOne = cells.firstEntry().getValue();
        double smallestP50Ms = quantile(batchOne.firstEntry().getValue(), 0.5) / 1e6;
        SeriesFit fit = run.fits() == null ? null : run.fits().stream().filter(f -> f.backend().equals(backend)
                && f.device().equals(device) && f.model().equals(model) && f.seqLen() == batchOne.firstKey()
                && f.fixedCostMs() != null).findFirst().orElse(null);
        if (floor != null && floor.overheadMs() > 0) {
            fixed = Math.min(floor.overheadMs(), smallestP50Ms);
            source = Text.f("%.3f ms, the profile's fixed cost per call", fixed);
        } else if (fit != null && fit.fixedCostMs() > 0) {
            fixed = Math.min(fit.fixedCostMs(), smallestP50Ms);
            source = Text.f("%.3f ms, the intercept of p50 against batch at seq %d", fixed, batchOne.firstKey());
        }
        ShapeLatency latency = new ShapeLatency(fixed, source);
        latency.passesByBatchThenSeq.putAll(cells);
        return latency;
    }

    /** True when lengths other than the measured ones can be priced at this batch size: it has a measured length. */
    public boolean priced(int batch) {
        TreeMap<Integer, long[]> bySeq = passesByBatchThenSeq.get(batch);
        return bySeq != null && !bySeq.isEmpty();
    }

    public boolean measured(int seq, int batch) {
        TreeMap<Integer, long[]> bySeq = passesByBatchThenSeq.get(batch);
        return bySeq != null && bySeq.containsKey(seq);
    }

    /** Whether {@code seq} lies outside the measured lengths at this batch size, so its cost is extrapolated. */
    public boolean extrapolated(int seq, int batch) {
        TreeMap<Integer, long[]> bySeq = passesByBatchThenSeq.get(batch);
        return bySeq == null || seq < bySeq.firstKey() || seq > bySeq.lastKey();
    }

    public java.util.Set<Integer> batches() {
        return passesByBatchThenSeq.keySet();
    }

    public double fixedCostMs() {
        return fixedCostMs;
    }

    /** The cost model's p50 at {@code seq}, in ms (the measured p50 at a measured length). */
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
        double scale = costMs(seq, batch) / costMs(nearest.getKey(), batch);
        return quantile(nearest.getValue(), u) * scale / 1e6;
    }

    /** A pass drawn at random from this shape's distribution, in ms. */
    public double sampleMs(int seq, int batch, SplittableRandom random) {
        return quantileMs(seq, batch, random.nextDouble());
    }

    /**
     * The cost model's p50 of a pass at {@code seq} tokens, in ms: measured p50s joined by straight lines, non-decreasing
     * in length; the fixed cost per call at length 0; the last segment's slope beyond the largest measured length.
     */
    public double costMs(double seq, int batch) {
        TreeMap<Integer, Double> knots = knots(batch);
        Map.Entry<Integer, Double> below = knots.floorEntry((int) Math.floor(seq));
        Map.Entry<Integer, Double> above = knots.ceilingEntry((int) Math.ceil(seq));
        if (below != null && above != null) {
            if (below.getKey().equals(above.getKey())) {
                return below.getValue();
            }
            double w = (seq - below.getKey()) / (above.getKey() - below.getKey());
            return below.getValue() + w * (above.getValue() - below.getValue());
        }
        Map.Entry<Integer, Double> last = knots.lastEntry();
        Map.Entry<Integer, Double> previous = knots.lowerEntry(last.getKey());
        double slope = (last.getValue() - previous.getValue()) / (last.getKey() - previous.getKey());
        return last.getValue() + slope * (seq - last.getKey());
    }

    /**
     * (length, p50 ms) from length 0 (the fixed cost) through every measured length, non-decreasing; built once per
     * batch size (the workload analysis prices hundreds of thousands of draws).
     */
    private TreeMap<Integer, Double> knots(int batch) {
        return knotsByBatch.computeIfAbsent(batch, this::buildKnots);
    }

    private TreeMap<Integer, Double> buildKnots(int batch) {
        TreeMap<Integer, Double> knots = new TreeMap<>();
        knots.put(0, fixedCostMs); // per call: the same at every batch size
        double running = knots.get(0);
        for (Map.Entry<Integer, long[]> e : passesByBatchThenSeq.get(batch).entrySet()) {
            running = Math.max(running, quantile(e.getValue(), 0.5) / 1e6);
            knots.put(e.getKey(), running);
        }
        return knots;
    }

    /** How latency at unmeasured shapes is obtained. */
    public String describe(int batch) {
        TreeMap<Integer, long[]> bySeq = passesByBatchThenSeq.get(batch);
        if (bySeq == null) {
            return "batch " + batch + ": not measured";
        }
        return Text.f("batch %d: measured at seq %s; other lengths interpolated linearly between them, down to a fixed cost "
                + "per call at length 0 of %s, and extrapolated beyond %d with the last segment's slope", batch, bySeq.keySet(),
                fixedCostSource, bySeq.lastKey());
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
