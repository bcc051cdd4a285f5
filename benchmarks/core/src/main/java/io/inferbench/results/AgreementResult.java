package io.inferbench.results;

import java.util.List;

/**
 * {@code run.json}'s {@code agreement} section (schema 7): every model against the reference ({@code bench.reference}),
 * on each engine and device, at each (seq, batch) of the sweep: how far its outputs are from the reference's on the same
 * seeded inputs, and how much faster it is.
 *
 * @param reference      the reference model
 * @param inputsPerShape seeded input batches compared per shape (so {@code inputsPerShape * batch} rows)
 * @param minCosine      a shape agrees when every row's cosine similarity is at least this ...
 * @param minTop1        ... and, for classifier outputs, at least this share of rows keep their top-1 class
 * @param method         how the inputs are made and the figures defined
 */
public record AgreementResult(String reference, int inputsPerShape, double minCosine, double minTop1, String method,
                              List<Pair> pairs) {

    /**
     * One model against the reference on one engine and device.
     *
     * @param output  the first output compared, as declared (name, type, dims)
     * @param refusal why the pair could not be compared (then {@code shapes} is empty), or null
     */
    public record Pair(String backend, String device, String model, String output, boolean classifier, List<ShapeAgreement> shapes,
                       String refusal) {
    }

    /**
     * One (seq, batch) shape: the output figures ({@link io.inferbench.precision.OutputAgreement} defines them) and the
     * speed-up, reference p50 over the model's p50 from the sweep's cells (and the same for p99); null where a cell failed.
     *
     * @param agrees whether the shape meets both thresholds
     */
    public record ShapeAgreement(int seqLen, int batch, int rows, int valuesPerRow, double maxAbsError, double maxRelError,
                                 double minCosine, double meanCosine, Double top1Agreement, Double referenceP50Ms,
                                 Double modelP50Ms, Double speedupP50, Double speedupP99, boolean agrees) {
    }
}
