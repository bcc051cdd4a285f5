package io.inferbench.api;

import java.util.List;

/**
 * What one call is asked to handle: {@code batch} requests of {@code seqLen} tokens each (the cell's, or a serving batch's
 * bucket), their texts when the run has a text workload, and a seed for anything else it makes up.
 *
 * @param batch  requests in the call, at least 1
 * @param seqLen the sequence length asked for: a sweep's cell, or the bucket a serving batch is padded to; 0 for a run
 *               without a swept length
 * @param texts  the requests' texts, {@code batch} of them, when a text workload is given ({@code -Dbench.text}); empty
 *               otherwise. In a sweep, texts of the workload whose token length falls in the cell's bucket, drawn with
 *               the seed; under serving, each request's own
 * @param seed   the run's seed combined with the shape: the same in every fork, different for another shape
 */
public record Shape(int batch, int seqLen, List<String> texts, long seed) {
    public Shape {
        texts = List.copyOf(texts);
    }
}
