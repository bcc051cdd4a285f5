package io.inferbench.sweep;

import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.List;

/**
 * Estimates the time left in a sweep from the cells done so far. A cell's wall time is modelled as
 * {@code fixed + perToken * batch * seqLen} (fork start and session creation, plus passes that scale with the
 * tokens in a batch), fitted by least squares once two cells of different size are done; before that, the
 * mean cell time. No cell is predicted shorter than the shortest one seen (a noisy first cell can tilt the
 * fit). Cells are not equally expensive, so a plain "mean time x cells left" would mislead.
 */
final class EtaEstimator {
    private final SimpleRegression secondsByTokens = new SimpleRegression(true);
    private double totalSeconds;
    private double shortestSeconds = Double.POSITIVE_INFINITY;
    private int done;

    void record(Cell cell, double seconds) {
        secondsByTokens.addData((double) cell.batch() * cell.seqLen(), seconds);
        totalSeconds += seconds;
        shortestSeconds = Math.min(shortestSeconds, seconds);
        done++;
    }

    /** Seconds left for {@code remaining}, or NaN before any cell is done. */
    double secondsLeft(List<Cell> remaining) {
        if (done == 0) {
            return Double.NaN;
        }
        double mean = totalSeconds / done;
        boolean fitted = secondsByTokens.getN() >= 2 && !Double.isNaN(secondsByTokens.getSlope());
        double left = 0;
        for (Cell cell : remaining) {
            double predicted = fitted ? secondsByTokens.predict((double) cell.batch() * cell.seqLen()) : mean;
            left += Math.max(predicted, shortestSeconds);
        }
        return left;
    }
}
