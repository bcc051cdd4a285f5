package io.inferbench.serve;

import io.inferbench.Text;
import io.inferbench.measure.HistogramCodec;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The time one forward pass takes at each batch size, as the sweep measured it: the whole distribution of each cell
 * (its HdrHistogram), sampled by inverse CDF.
 *
 * <ul>
 *   <li>a batch size the sweep measured: a pass drawn from that cell's own passes;</li>
 *   <li>between two measured sizes: the same quantile of both, interpolated linearly in batch size;</li>
 *   <li>beyond the largest: that cell's quantile scaled by the ratio of the two largest cells' p50 per row, i.e. the
 *       marginal cost per row held constant; below the smallest, the smallest's. Both are said in {@link #note}. With
 *       one measured size, nothing above it is priced ({@link #canPrice}).</li>
 * </ul>
 * Quantiles are nearest-rank over each histogram's recorded values (3 significant digits).
 */
public final class ServiceTimes {
    private final TreeMap<Integer, long[]> sortedByRows = new TreeMap<>();
    /** Added to every pass of a batch of that many rows: the serving path's own cost ({@link #plusPath}); empty: none. */
    private final TreeMap<Integer, Long> pathNsByRows = new TreeMap<>();
    /** Sorted served-over-median ratios that replace the measured spread ({@link #servedAs}); null: the measured one. */
    private double[] servedRatios;
    /**
     * Served-over-median ratios in the order a point served them, with each batch's start ({@link #servedInTime}): a pass
     * starting at a time takes the ratio of the served batch running then. Null: drawn, not looked up.
     */
    private long[] timelineStartsNs;
    private double[] timelineRatios;

    /** @param byRows each measured batch size (rows in one pass) with its passes */
    public ServiceTimes(Map<Integer, Histogram> byRows) {
        if (byRows.isEmpty()) {
            throw new IllegalArgumentException("no measured batch sizes to take service times from");
        }
        byRows.forEach((rows, h) -> sortedByRows.put(rows, HistogramCodec.sortedValues(h)));
    }

    private ServiceTimes(TreeMap<Integer, long[]> sorted) {
        sortedByRows.putAll(sorted);
    }

    /**
     * These times plus the serving path's own cost per batch ({@code nsByRows}: rows to nanoseconds; a batch size not
     * listed takes the nearest smaller one's, or the smallest's): what a worker adds around the pass (input tensors,
     * reading and splitting the output, tokenizing text) and the sweep's pass leaves out.
     */
    public ServiceTimes plusPath(Map<Integer, Long> nsByRows) {
        ServiceTimes with = new ServiceTimes(sortedByRows);
        with.pathNsByRows.putAll(nsByRows);
        return with;
    }

    /**
     * These times, every pass and path cost multiplied by {@code factor}, the spread kept: the forecast brought to the
     * machine's speed of the moment, where a speed check just before found the passes {@code factor} times these.
     */
    public ServiceTimes scaled(double factor) {
        if (!(factor > 0)) {
            throw new IllegalArgumentException("a scale for service times must be positive, got " + factor);
        }
        TreeMap<Integer, long[]> times = new TreeMap<>();
        sortedByRows.forEach((rows, sorted) -> {
            long[] copy = new long[sorted.length];
            for (int i = 0; i < sorted.length; i++) {
                copy[i] = Math.max(1, Math.round(sorted[i] * factor));
            }
            times.put(rows, copy);
        });
        ServiceTimes with = new ServiceTimes(times);
        pathNsByRows.forEach((rows, ns) -> with.pathNsByRows.put(rows, Math.round(ns * factor)));
        with.servedRatios = servedRatios;
        return with;
    }

    /**
     * Passes as a measured point served them: a batch of {@code rows} takes these times' median at its size times a
     * ratio drawn from {@code servedOverMedian} (each served batch's service over the median at its size, as
     * {@link ServedPasses} measures them), and the path cost the same ratio. The sizes' medians keep the sweep's cost
     * per row; the spread, tails included, is the served one. For a diagnostic re-simulation, not a forecast: the ratios
     * are measured at the point they are applied to.
     */
    public ServiceTimes servedAs(double[] servedOverMedian) {
        if (servedOverMedian.length == 0) {
            throw new IllegalArgumentException("no served passes to take the spread from");
        }
        ServiceTimes with = new ServiceTimes(sortedByRows);
        with.pathNsByRows.putAll(pathNsByRows);
        with.servedRatios = servedOverMedian.clone();
        java.util.Arrays.sort(with.servedRatios);
        return with;
    }

    /**
     * Passes as a measured point served them, in time: a batch of {@code rows} starting at {@code t} takes these times'
     * median at its size times the ratio of the served batch that started last at or before {@code t} ({@code startsNs},
     * sorted, on the simulation's clock). Slow spells stay where and as long as they were, where {@link #servedAs}
     * scatters the same ratios at random. For a diagnostic replay of the point the ratios were measured at.
     */
    public ServiceTimes servedInTime(long[] startsNs, double[] ratios) {
        if (startsNs.length == 0 || startsNs.length != ratios.length) {
            throw new IllegalArgumentException("a served timeline needs one start per ratio, and at least one: got "
                    + startsNs.length + " starts and " + ratios.length + " ratios");
        }
        ServiceTimes with = new ServiceTimes(sortedByRows);
        with.pathNsByRows.putAll(pathNsByRows);
        with.servedRatios = ratios.clone();
        java.util.Arrays.sort(with.servedRatios);
        with.timelineStartsNs = startsNs.clone();
        with.timelineRatios = ratios.clone();
        return with;
    }

    /** The path's cost added to a batch of {@code rows}; 0 without {@link #plusPath}. */
    long pathNs(int rows) {
        if (pathNsByRows.isEmpty()) {
            return 0;
        }
        Map.Entry<Integer, Long> e = pathNsByRows.floorEntry(rows);
        return (e != null ? e : pathNsByRows.firstEntry()).getValue();
    }

    /** One pass's time, in nanoseconds, for a batch of {@code rows}. */
    public long sample(int rows, SplittableRandom random) {
        return quantile(rows, random.nextDouble());
    }

    /** One pass's time for a batch of {@code rows} starting at {@code startNs}: as served then, with a timeline. */
    long sample(int rows, SplittableRandom random, long startNs) {
        if (timelineStartsNs == null) {
            return sample(rows, random);
        }
        int i = java.util.Arrays.binarySearch(timelineStartsNs, startNs);
        int at = i >= 0 ? i : Math.max(0, -i - 2);
        return Math.max(1, Math.round((passQuantile(rows, 0.5) + pathNs(rows)) * timelineRatios[at]));
    }

    long quantile(int rows, double u) {
        if (servedRatios != null) {
            return Math.max(1, Math.round((passQuantile(rows, 0.5) + pathNs(rows)) * at(servedRatios, u)));
        }
        return passQuantile(rows, u) + pathNs(rows);
    }

    private long passQuantile(int rows, double u) {
        long[] exact = sortedByRows.get(rows);
        if (exact != null) {
            return at(exact, u);
        }
        Map.Entry<Integer, long[]> below = sortedByRows.floorEntry(rows);
        Map.Entry<Integer, long[]> above = sortedByRows.ceilingEntry(rows);
        if (below == null) {
            return at(above.getValue(), u);
        }
        if (above != null) {
            double w = (rows - below.getKey()) / (double) (above.getKey() - below.getKey());
            return Math.round((1 - w) * at(below.getValue(), u) + w * at(above.getValue(), u));
        }
        Map.Entry<Integer, long[]> previous = sortedByRows.lowerEntry(below.getKey());
        long largest = at(below.getValue(), u);
        if (previous == null) {
            throw new IllegalStateException("batches of " + rows + " rows cannot be priced from the one batch size the sweep "
                    + "measured (" + below.getKey() + "): a pass has a fixed cost per call that one size cannot separate "
                    + "from its cost per row. Check canPrice first");
        }
        double perRowMarginal = (at(below.getValue(), 0.5) - at(previous.getValue(), 0.5))
                / (double) (below.getKey() - previous.getKey());
        double p50AtRows = at(below.getValue(), 0.5) + Math.max(0, perRowMarginal) * (rows - below.getKey());
        return Math.round(largest * p50AtRows / at(below.getValue(), 0.5));
    }

    private static long at(long[] sorted, double u) {
        return sorted[rank(sorted.length, u) - 1];
    }

    /** The nearest-rank {@code u} quantile of sorted {@code values}, as {@link #at(long[], double)}. */
    static double at(double[] sorted, double u) {
        return sorted[rank(sorted.length, u) - 1];
    }

    /** Nearest rank, 1 to {@code n}: the smallest rank with at least a share {@code u} of the values at or below it. */
    private static int rank(int n, double u) {
        return Math.min(n, Math.max((int) Math.ceil(u * n), 1));
    }

    /**
     * Whether a batch of {@code rows} can be priced: measured, between two measured sizes, below the smallest (priced as
     * the smallest), or above the largest when two sizes give the marginal cost per row. Above the only measured size
     * it cannot: pricing it in proportion to rows would leave out the fixed cost per call, and overstate large batches.
     */
    public boolean canPrice(int rows) {
        return rows <= sortedByRows.lastKey() || sortedByRows.size() >= 2;
    }

    /** How batches of {@code rows} are priced: measured, interpolated or extrapolated, or not at all. */
    public String note(List<Integer> rowsNeeded) {
        List<String> parts = new ArrayList<>();
        for (int rows : rowsNeeded) {
            if (sortedByRows.containsKey(rows)) {
                continue;
            }
            parts.add(!canPrice(rows) ? rows + " (not priced: one measured batch size; no prediction for policies that form it)"
                    : rows > sortedByRows.lastKey() ? rows + " (extrapolated)" : rows < sortedByRows.firstKey()
                    ? rows + " (as " + sortedByRows.firstKey() + ")" : rows + " (interpolated)");
        }
        return "service times from the sweep's cells at batch " + sortedByRows.keySet()
                + (parts.isEmpty() ? "" : "; batches of " + String.join(", ", parts) + " rows");
    }

    @Override
    public String toString() {
        return Text.f("ServiceTimes%s", sortedByRows.keySet());
    }
}
