package io.inferbench.precision;

/**
 * How outputs are compared with the reference's ({@code bench.agreement.*}).
 *
 * @param inputsPerShape seeded input batches per (seq, batch) shape; each row of each is compared
 * @param minCosine      the lowest cosine similarity of any row that still agrees
 * @param minTop1        the lowest share of rows with the same top-1 class that still agrees (classifier outputs only)
 */
public record AgreementOptions(int inputsPerShape, double minCosine, double minTop1) {
}
