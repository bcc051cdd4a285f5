package io.inferbench.analysis;

import com.fasterxml.jackson.annotation.JsonValue;

/** The verdict for one batch-scaling series, with what it suggests doing. */
public enum Regime {
    MEMORY_BOUND("memory-bound", "batch more; quantize, fuse", "Batching is nearly free here: use larger batches. To cut latency itself, reduce "
            + "bytes moved: FP16/INT8 quantization, kernel fusion."),
    COMPUTE_BOUND("compute-bound", "cap batch; cut the work", "Latency grows with batch: larger dynamic batches only add tail latency. "
            + "Reduce the work itself: a smaller or distilled model, shorter sequences, pruning, faster kernels."),
    TRANSITIONAL("transitional", "batch up to the knee", "Batch up to the knee, where batching is still cheap; beyond it latency grows "
            + "with batch, so cap dynamic batching there."),
    INCONCLUSIVE("inconclusive", "re-run longer, quieter", "No verdict: re-run with more passes or forks on a quieter machine before "
            + "deciding anything from this series.");

    private final String label;
    private final String shortAdvice;
    private final String advice;

    Regime(String label, String shortAdvice, String advice) {
        this.label = label;
        this.shortAdvice = shortAdvice;
        this.advice = advice;
    }

    /** A few words for the console's verdict table. */
    public String shortAdvice() {
        return shortAdvice;
    }

    @JsonValue
    public String label() {
        return label;
    }

    public String advice() {
        return advice;
    }
}
