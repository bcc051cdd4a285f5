package io.inferbench.analysis;

import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.List;

/**
 * The best "flat, then rising" fit: {@code T(B) = flat + rising * max(0, B - knee)}, a hinge, with the knee
 * searched over the interior batch sizes and the two coefficients fitted by least squares for each.
 *
 * @param kneeBatch           the last batch of the flat part; beyond it each extra sample costs {@code rising}
 * @param improvementOverLine 1 - SSE(hinge) / SSE(straight line): 0 = no better than a line, 1 = perfect
 */
public record KneeFit(int kneeBatch, double flatMs, double risingMsPerSample, double improvementOverLine,
                      double residualStdErrorMs) {

    /** Null when there is no interior batch to put a knee at, or no candidate rises after its knee. */
    public static KneeFit best(List<Integer> batches, List<Double> latencyMs, double lineSumSquaredErrors) {
        KneeFit best = null;
        double bestSse = Double.POSITIVE_INFINITY;
        for (int k = 1; k < batches.size() - 1; k++) {
            int knee = batches.get(k);
            SimpleRegression hinge = new SimpleRegression(true);
            for (int i = 0; i < batches.size(); i++) {
                hinge.addData(Math.max(0, batches.get(i) - knee), latencyMs.get(i));
            }
            double rising = hinge.getSlope();
            double sse = hinge.getSumSquaredErrors();
            if (!(rising > 0) || !(sse < bestSse)) {
                continue;
            }
            bestSse = sse;
            int dof = Math.max(1, batches.size() - 3);
            double improvement = lineSumSquaredErrors > 0 ? 1 - sse / lineSumSquaredErrors : 0;
            best = new KneeFit(knee, hinge.getIntercept(), rising, improvement, Math.sqrt(sse / dof));
        }
        return best;
    }
}
