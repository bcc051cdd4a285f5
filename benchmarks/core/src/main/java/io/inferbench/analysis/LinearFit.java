package io.inferbench.analysis;

import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.List;

/**
 * Ordinary least squares of latency (ms) against batch, from Commons Math's {@link SimpleRegression}.
 * The slope's confidence interval uses Student's t with n - 2 degrees of freedom, so it is null with fewer
 * than three points (JSON has no NaN).
 *
 * @param slopeMsPerSample  the marginal cost of one more sample
 * @param interceptMs       the fixed cost, extrapolated to batch 0
 */
public record LinearFit(int points, double slopeMsPerSample, double interceptMs, Double slopeCiLowMsPerSample,
                        Double slopeCiHighMsPerSample, Double rSquared, double residualStdErrorMs) {

    public static LinearFit of(List<Integer> batches, List<Double> latencyMs, double confidenceLevel) {
        SimpleRegression regression = new SimpleRegression(true);
        for (int i = 0; i < batches.size(); i++) {
            regression.addData(batches.get(i), latencyMs.get(i));
        }
        double slope = regression.getSlope();
        Double low = null;
        Double high = null;
        double residual = 0;
        if (regression.getN() >= 3) {
            double halfWidth = regression.getSlopeConfidenceInterval(1 - confidenceLevel);
            low = finite(slope - halfWidth);
            high = finite(slope + halfWidth);
            residual = Math.sqrt(regression.getMeanSquareError());
        }
        return new LinearFit((int) regression.getN(), slope, regression.getIntercept(), low, high,
                finite(regression.getRSquare()), residual);
    }

    public double predict(double batch) {
        return interceptMs + slopeMsPerSample * batch;
    }

    static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
