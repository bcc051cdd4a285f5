package io.inferbench.inputs;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a model's inputs are filled at each cell: every input planned ({@link PlannedInput}), and what each dynamic axis
 * is bound to. The batch axis follows {@code bench.batch}; the swept axis follows {@code bench.seq}; every other
 * dynamic axis has its size in {@link #dims}. A model without a swept axis runs batch only: its cells have
 * {@code seqLen} 0.
 *
 * @param batchAxis   the leading dynamic axis the inputs share; null when the model's batch is fixed
 * @param seqAxis     the axis the sweep's lengths bind; null for a model that runs batch only, or whose token axis is fixed
 * @param fixedBatch  the batch the model requires, or -1
 * @param fixedSeqLen the sequence length the model's token inputs require, or -1
 * @param specFile    the input spec's path, or null
 * @param specSha256  the input spec's SHA-256, or null
 */
public record InputPlan(List<PlannedInput> inputs, String batchAxis, String seqAxis, Map<String, Long> dims,
                        long fixedBatch, long fixedSeqLen, String specFile, String specSha256) {
    public InputPlan {
        inputs = List.copyOf(inputs);
        dims = Map.copyOf(dims);
    }

    /** A model with no swept axis: one cell per batch, at seqLen 0. */
    public boolean batchOnly() {
        return seqAxis == null && fixedSeqLen < 0;
    }

    /** Whether any input takes the token batch's ids (what a text workload needs). */
    public boolean takesTokenIds() {
        return inputs.stream().anyMatch(i -> i.role() == InputRole.TOKEN_IDS);
    }

    public List<String> inputNames() {
        return inputs.stream().map(PlannedInput::name).toList();
    }

    /** The concrete shape of {@code input} at a cell. */
    public long[] shape(PlannedInput input, int batch, int seqLen) {
        long[] shape = new long[input.shape().size()];
        for (int i = 0; i < shape.length; i++) {
            Dim d = input.shape().get(i);
            if (d.isFixed()) {
                shape[i] = d.size();
            } else if (d.name().equals(batchAxis)) {
                shape[i] = batch;
            } else if (d.name().equals(seqAxis)) {
                shape[i] = seqLen;
            } else {
                shape[i] = dims.get(d.name());
            }
        }
        return shape;
    }

    public static long elements(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    /** Null when the model can take {@code batch x seqLen}; otherwise the reason it cannot. */
    public String incompatibility(int batch, int seqLen) {
        if (fixedBatch >= 0 && fixedBatch != batch) {
            return "the model's batch axis is fixed at " + fixedBatch + ", but batch " + batch + " was requested";
        }
        if (fixedSeqLen >= 0 && fixedSeqLen != seqLen) {
            return "the model's sequence axis is fixed at " + fixedSeqLen + ", but seqLen " + seqLen + " was requested";
        }
        if (batchOnly() && seqLen != 0) {
            return "the model has no axis for the sweep's lengths to bind (it runs batch only, at seqLen 0)";
        }
        if (!batchOnly() && seqLen <= 0) {
            return "the model's axis " + (seqAxis == null ? "of length " + fixedSeqLen : "'" + seqAxis + "'")
                    + " needs a positive length";
        }
        for (PlannedInput input : inputs) {
            if (input.values() instanceof ValueGenerator.Npy npy) {
                long[] shape = shape(input, batch, seqLen);
                List<Long> row = new ArrayList<>();
                for (int i = 1; i < shape.length; i++) {
                    row.add(shape[i]);
                }
                if (!row.equals(npy.array().rowShape())) {
                    return "the rows of " + npy.array().file() + " have shape " + npy.array().rowShape() + ", but input '"
                            + input.name() + "' takes rows of shape " + row + " at batch " + batch + " x seqLen " + seqLen;
                }
            }
        }
        return null;
    }

    /**
     * Refuses a shape the model cannot take, naming it and the fix: the one message the preflight and every runner give.
     *
     * @throws BenchmarkException when {@link #incompatibility} finds a reason
     */
    public void requireFits(int batch, int seqLen) {
        String problem = incompatibility(batch, seqLen);
        if (problem != null) {
            throw new BenchmarkException("The model cannot take batch " + batch + " x seqLen " + seqLen + ": " + problem
                    + ". Restrict the sweep with -Dbench.batch / -Dbench.seq, or export the model with dynamic axes");
        }
    }

    /** One line per input, for the console and the report: {@code pixel_values float32 [batch,3,64,64] normal(0,1)}. */
    public List<String> describe() {
        return inputs.stream().map(i -> i.name() + " " + i.type() + " " + i.shapeLabel() + " " + i.valuesLabel()).toList();
    }
}
