package io.inferbench.backend;

import java.util.List;

/**
 * The model's inputs as the harness will fill them, and the fixed sizes (if any) of its batch and sequence axes.
 *
 * @param inputNames  in the model's order; always contains {@code input_ids}
 * @param fixedBatch  the batch size the model requires, or -1 if the axis is dynamic
 * @param fixedSeqLen the sequence length the model requires, or -1 if the axis is dynamic
 */
public record InputLayout(List<String> inputNames, long fixedBatch, long fixedSeqLen) {
    public static final String INPUT_IDS = "input_ids";
    public static final String ATTENTION_MASK = "attention_mask";
    public static final String TOKEN_TYPE_IDS = "token_type_ids";
    /** The inputs the harness knows how to fill: ids (synthetic tokens), mask (all ones), token types (zeros). */
    public static final List<String> SUPPORTED = List.of(INPUT_IDS, ATTENTION_MASK, TOKEN_TYPE_IDS);

    /** Null when the model can take this shape; otherwise the reason it cannot. */
    public String incompatibility(int batch, int seqLen) {
        if (fixedBatch >= 0 && fixedBatch != batch) {
            return "the model's batch axis is fixed at " + fixedBatch + ", but batch " + batch + " was requested";
        }
        if (fixedSeqLen >= 0 && fixedSeqLen != seqLen) {
            return "the model's sequence axis is fixed at " + fixedSeqLen + ", but seqLen " + seqLen + " was requested";
        }
        return null;
    }
}
