package io.inferbench.precision;

/**
 * How far a candidate's outputs are from the reference's, over every row of every compared batch. The first output of
 * each pass is read as {@code [batch, values per row]} (row-major; a row is one sample's output, whatever its own
 * shape), and:
 *
 * <ul>
 *   <li><b>max absolute error</b>: the largest |candidate - reference| of any value;</li>
 *   <li><b>max relative error</b>: per row, the largest absolute error over the row's largest reference magnitude
 *       (a norm-wise ratio: element-wise ratios explode on values near zero, which says nothing about the model);
 *       the largest over rows;</li>
 *   <li><b>cosine similarity</b> of each row's two vectors: the smallest and the mean (two zero rows count as 1);</li>
 *   <li><b>top-1 agreement</b>, for classifier outputs: the share of rows whose largest value is at the same index
 *       (the first index on ties).</li>
 * </ul>
 *
 * Not thread-safe; one per (pair, shape).
 */
public final class OutputAgreement {
    private final boolean classifier;
    private int rows;
    private int valuesPerRow = -1;
    private double maxAbs;
    private double maxRel;
    private double minCosine = 1;
    private double sumCosine;
    private int sameTop1;

    /** @param classifier whether each row is a vector of class scores, so top-1 agreement is counted */
    public OutputAgreement(boolean classifier) {
        this.classifier = classifier;
    }

    /** The summary so far. */
    public record Stats(int rows, int valuesPerRow, double maxAbsError, double maxRelError, double minCosine, double meanCosine,
                        Double top1Agreement) {
    }

    /**
     * Adds one pass's first outputs, both {@code [batch, n]} row-major.
     *
     * @throws IllegalArgumentException when the two differ in size, or do not split into {@code batch} rows
     */
    public void add(float[] reference, float[] candidate, int batch) {
        if (reference.length != candidate.length) {
            throw new IllegalArgumentException("the outputs differ in size: " + reference.length + " values from the reference, "
                    + candidate.length + " from the candidate, at batch " + batch);
        }
        if (batch <= 0 || reference.length % batch != 0 || reference.length == 0) {
            throw new IllegalArgumentException(reference.length + " output values do not split into " + batch + " rows");
        }
        int n = reference.length / batch;
        if (valuesPerRow >= 0 && valuesPerRow != n) {
            throw new IllegalArgumentException("rows changed size between passes: " + valuesPerRow + " then " + n);
        }
        valuesPerRow = n;
        for (int row = 0; row < batch; row++) {
            int from = row * n;
            double dot = 0;
            double refNorm = 0;
            double candNorm = 0;
            double rowMaxAbs = 0;
            double refMax = 0;
            int refTop = from;
            int candTop = from;
            for (int i = from; i < from + n; i++) {
                double r = reference[i];
                double c = candidate[i];
                dot += r * c;
                refNorm += r * r;
                candNorm += c * c;
                rowMaxAbs = Math.max(rowMaxAbs, Math.abs(c - r));
                refMax = Math.max(refMax, Math.abs(r));
                if (reference[i] > reference[refTop]) {
                    refTop = i;
                }
                if (candidate[i] > candidate[candTop]) {
                    candTop = i;
                }
            }
            double cosine = refNorm == 0 && candNorm == 0 ? 1 : refNorm == 0 || candNorm == 0 ? 0 : dot / Math.sqrt(refNorm * candNorm);
            maxAbs = Math.max(maxAbs, rowMaxAbs);
            maxRel = Math.max(maxRel, refMax == 0 ? (rowMaxAbs == 0 ? 0 : Double.POSITIVE_INFINITY) : rowMaxAbs / refMax);
            minCosine = Math.min(minCosine, cosine);
            sumCosine += cosine;
            if (refTop == candTop) {
                sameTop1++;
            }
            rows++;
        }
    }

    public Stats stats() {
        return new Stats(rows, Math.max(valuesPerRow, 0), maxAbs, maxRel, minCosine, rows == 0 ? 1 : sumCosine / rows,
                classifier && rows > 0 ? (double) sameTop1 / rows : null);
    }
}
