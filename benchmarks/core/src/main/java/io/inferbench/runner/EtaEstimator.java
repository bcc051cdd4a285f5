package io.inferbench.runner;

import io.inferbench.analysis.SeriesKey;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Estimates the time left in a sweep. Cells are far from equally expensive (a pass at seq 512 x batch 8 is hundreds of
 * times one at seq 64 x batch 1), and with warm-up until steady and measurement until precise a cell's time is not a
 * fixed number of passes either: a cheap cell runs until its minimum time, a costly one until its interval is tight
 * or its cap. So:
 * <ul>
 *   <li>a cell already run in an earlier round costs what it cost then (from its start to its end in the fork);</li>
 *   <li>any other cell's pass time comes from a power law {@code ms = c * tokens^k} (tokens = batch x seq) fitted per
 *       engine, device and model on log-log axes, from the cells measured so far and from preflight's probe passes at
 *       the smallest and the largest shape, so the large cells are priced before any of them has run; its time then
 *       comes from a second power law, of a cell's time against its pass time, fitted per engine to the cells run so far;</li>
 *   <li>each fork JVM still to start costs what the engine's earlier ones spent outside their cells (start-up, engine
 *       load, session creation, exit).</li>
 * </ul>
 * Before any cell has finished, the estimate is unknown.
 */
final class EtaEstimator {
    private final Map<Cell, Double> cellSeconds = new HashMap<>();
    private final Map<Cell, Double> measuredPassMs = new HashMap<>();
    private final Map<SeriesKey.EngineModel, List<double[]>> passTimes = new HashMap<>();
    private final Map<String, List<double[]>> costs = new HashMap<>();
    private final Map<String, double[]> jvmOverhead = new HashMap<>();

    /** A pass timed outside the sweep (preflight's probes), for the power law of its engine, device and model. */
    void probe(SeriesKey.EngineModel target, long tokens, double passMs) {
        if (passMs > 0) {
            passTimes.computeIfAbsent(target, k -> new ArrayList<>()).add(new double[] {Math.log(tokens), Math.log(passMs)});
        }
    }

    /**
     * A cell finished in a fork: its wall time there and, when it measured anything, its p50.
     *
     * @param p50Ms null when it failed
     */
    void cellFinished(Cell cell, double seconds, Double p50Ms) {
        cellSeconds.put(cell, seconds);
        if (p50Ms != null && p50Ms > 0 && seconds > 0) {
            measuredPassMs.put(cell, p50Ms);
            probe(cell.series().engineModel(), tokens(cell), p50Ms);
            costs.computeIfAbsent(cell.backend(), k -> new ArrayList<>()).add(new double[] {Math.log(p50Ms), Math.log(seconds)});
        }
    }

    /** A fork JVM's time outside its cells: launch to its first cell, and its last cell to its exit. */
    void jvmOverhead(String backend, double seconds) {
        double[] sum = jvmOverhead.computeIfAbsent(backend, k -> new double[2]);
        sum[0] += Math.max(0, seconds);
        sum[1]++;
    }

    /** Seconds left for the {@code remaining} cells and fork JVMs (one backend name per JVM), or NaN while unknown. */
    double secondsLeft(List<Cell> remaining, List<String> remainingJvms) {
        if (cellSeconds.isEmpty()) {
            return Double.NaN;
        }
        double left = 0;
        for (Cell cell : remaining) {
            left += cellSeconds(cell);
        }
        for (String backend : remainingJvms) {
            left += overheadSeconds(backend);
        }
        return left;
    }

    /** The cell's time in a fork: as it was in an earlier round, else from the engine's cost law. */
    double cellSeconds(Cell cell) {
        Double known = cellSeconds.get(cell);
        if (known != null) {
            return known;
        }
        List<double[]> points = costs.getOrDefault(cell.backend(), List.of());
        if (points.isEmpty()) {
            // No cell of this engine has run yet: the other engines' law, at this engine's own pass time.
            points = costs.values().stream().flatMap(List::stream).toList();
        }
        if (points.isEmpty()) {
            return cellSeconds.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
        }
        SimpleRegression law = new SimpleRegression(true);
        points.forEach(pt -> law.addData(pt[0], pt[1]));
        double passMs = passMs(cell);
        if (law.getXSumSquares() == 0 || passMs <= 0) {
            return Math.exp(points.stream().mapToDouble(pt -> pt[1]).average().orElseThrow());
        }
        return Math.exp(law.predict(Math.log(passMs)));
    }

    private double overheadSeconds(String backend) {
        double[] sum = jvmOverhead.get(backend);
        if (sum != null) {
            return sum[0] / sum[1];
        }
        return jvmOverhead.values().stream().mapToDouble(s -> s[0] / s[1]).average().orElse(0);
    }

    /** The cell's measured p50, else the power law of its engine, device and model; 0 when nothing is known. */
    double passMs(Cell cell) {
        Double measured = measuredPassMs.get(cell);
        if (measured != null) {
            return measured;
        }
        List<double[]> points = passTimes.get(cell.series().engineModel());
        if (points == null) {
            return 0;
        }
        double logTokens = Math.log(tokens(cell));
        SimpleRegression law = new SimpleRegression(true);
        points.forEach(pt -> law.addData(pt[0], pt[1]));
        if (law.getXSumSquares() == 0) {
            // One shape known: scale in proportion to the tokens, the cost of the projections and the feed-forward.
            double[] known = points.get(points.size() - 1);
            return Math.exp(known[1] + logTokens - known[0]);
        }
        return Math.exp(law.predict(logTokens));
    }

    private static long tokens(Cell cell) {
        return (long) cell.batch() * Math.max(1, cell.seqLen());
    }
}
