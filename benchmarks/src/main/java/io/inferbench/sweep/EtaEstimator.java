package io.inferbench.sweep;

import io.inferbench.analysis.SeriesKey;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Estimates the time left in a sweep. A fork run costs a fixed part (JVM start, engine load, session creation)
 * plus its passes ({@code warm-up + measured + the first pass}) times the time of one pass at the cell's shape, and
 * cells are far from equally expensive: a pass at seq 512 x batch 8 is hundreds of times one at seq 64 x batch 1,
 * and the sweep runs the small ones first. So:
 * <ul>
 *   <li>a cell already run in an earlier round costs what it cost then (its measured mean pass);</li>
 *   <li>any other cell's pass time comes from a power law {@code ms = c * tokens^k} (tokens = batch x seq) fitted per
 *       engine, device and model on log-log axes, from the cells measured so far and from preflight's probe passes at
 *       the smallest and the largest shape, so the large cells are priced before any of them has run;</li>
 *   <li>the fixed part of a fork run is the mean of what finished runs of the same engine spent beyond their passes
 *       (of any engine until one of its own has finished).</li>
 * </ul>
 * Before any fork run has finished, the fixed part is unknown and so is the estimate.
 */
final class EtaEstimator {
    private final int passesPerRun;
    private final Map<Cell, Double> measuredPassMs = new HashMap<>();
    private final Map<SeriesKey.EngineModel, List<double[]>> passTimes = new HashMap<>();
    private final Map<String, double[]> overheadByBackend = new HashMap<>();
    private double overheadSum;
    private int overheadRuns;

    /** @param passesPerRun every pass a fork run makes: warm-up, measured, and the first (cold) pass */
    EtaEstimator(int passesPerRun) {
        this.passesPerRun = passesPerRun;
    }

    /** A pass timed outside the sweep (preflight's probes), for the power law of its engine, device and model. */
    void probe(SeriesKey.EngineModel target, long tokens, double passMs) {
        if (passMs > 0) {
            passTimes.computeIfAbsent(target, k -> new ArrayList<>()).add(new double[] {Math.log(tokens), Math.log(passMs)});
        }
    }

    /**
     * A finished fork run: its wall time and, when it measured anything, the cell's mean pass so far.
     *
     * @param meanPassMs null when the run failed
     */
    void record(Cell cell, double wallSeconds, Double meanPassMs) {
        double passSeconds = 0;
        if (meanPassMs != null && meanPassMs > 0) {
            measuredPassMs.put(cell, meanPassMs);
            probe(cell.series().engineModel(), tokens(cell), meanPassMs);
            passSeconds = passesPerRun * meanPassMs / 1000;
        }
        double overhead = Math.max(0, wallSeconds - passSeconds);
        double[] sum = overheadByBackend.computeIfAbsent(cell.backend(), k -> new double[2]);
        sum[0] += overhead;
        sum[1]++;
        overheadSum += overhead;
        overheadRuns++;
    }

    /** Seconds left for the {@code remaining} fork runs, or NaN before any run has finished. */
    double secondsLeft(List<Cell> remaining) {
        if (overheadRuns == 0) {
            return Double.NaN;
        }
        double left = 0;
        for (Cell cell : remaining) {
            left += overheadSeconds(cell.backend()) + passesPerRun * passMs(cell) / 1000;
        }
        return left;
    }

    private double overheadSeconds(String backend) {
        double[] sum = overheadByBackend.get(backend);
        return sum != null ? sum[0] / sum[1] : overheadSum / overheadRuns;
    }

    /** The cell's measured mean pass, else the power law of its engine, device and model; 0 when nothing is known. */
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
        return (long) cell.batch() * cell.seqLen();
    }
}
