package io.inferbench.inputs;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Writes each planned input's values for one batch, outside the timed region. One per runner: it keeps where each
 * {@code .npy} input's rows go on from, so that successive batches take the file's rows in turn, and how many batches of
 * each shape it has drawn.
 *
 * <p>Generated values are seeded by the run's seed, the input's name, the shape and how many batches of that shape this
 * runner drew before: the first batch at a shape is the same in every fork and round, whatever order the fork runs its
 * cells in (as {@link io.inferbench.model.TokenInputs} does for token ids), and later batches at that shape (serving's
 * requests, the agreement check's seeded batches) get values of their own.
 */
public final class InputFill {
    private final InputPlan plan;
    private final long seed;
    private final Map<String, Long> nextRow = new HashMap<>();
    private final Map<String, Long> draws = new HashMap<>();

    public InputFill(InputPlan plan, long seed) {
        this.plan = plan;
        this.seed = seed;
    }

    public InputPlan plan() {
        return plan;
    }

    /**
     * Fills {@code out} (native order, sized for the input's shape at this cell) from its position.
     *
     * @param tokenIds      the token batch's ids, row-major {@code [batch, seqLen]}; read by token roles only
     * @param attentionMask the batch's mask, or null for every row full length
     */
    public void write(PlannedInput input, ByteBuffer out, int batch, int seqLen, long[] tokenIds, long[] attentionMask) {
        long count = InputPlan.elements(plan.shape(input, batch, seqLen));
        switch (input.role()) {
            case TOKEN_IDS -> {
                if (input.type() == ElementType.INT64) {
                    out.asLongBuffer().put(tokenIds);
                    out.position(out.position() + tokenIds.length * Long.BYTES);
                } else {
                    for (long id : tokenIds) {
                        ValueGenerator.put(out, input.type(), id);
                    }
                }
            }
            case ATTENTION_MASK -> {
                for (int i = 0; i < count; i++) {
                    ValueGenerator.put(out, input.type(), attentionMask == null ? 1 : attentionMask[i]);
                }
            }
            case TOKEN_TYPE_IDS -> {
                for (int i = 0; i < count; i++) {
                    ValueGenerator.put(out, input.type(), 0);
                }
            }
            case POSITION_IDS -> {
                for (int i = 0; i < count; i++) {
                    ValueGenerator.put(out, input.type(), i % seqLen);
                }
            }
            case GENERATED -> {
                if (input.values() instanceof ValueGenerator.Npy npy) {
                    long first = nextRow.getOrDefault(input.name(), 0L);
                    npy.array().copyRows(first, batch, out);
                    nextRow.put(input.name(), (first + batch) % npy.array().rows());
                } else {
                    long draw = draws.merge(input.name() + "@" + batch + "x" + seqLen, 1L, Long::sum) - 1;
                    SplittableRandom random = new SplittableRandom(seed ^ (input.name().hashCode() * 0x9E3779B97F4A7C15L)
                            ^ (31L * batch + seqLen) ^ (draw * 0xC2B2AE3D27D4EB4FL));
                    input.values().fill(out, input.type(), count, random);
                }
            }
        }
    }
}
