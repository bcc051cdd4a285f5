package io.inferbench.engine;

/**
 * A loaded model on one device, with one prepared input batch.
 *
 * <p>Lifecycle: {@link #prepare} (allocates and fills input tensors, never timed), then any number of
 * {@link #forward} calls (the timed region), then {@link #close}. The session's own {@code prepare}/{@code forward}
 * are for one caller at a time; more threads each take a {@link Runner} of their own ({@link #newRunner}), which shares
 * the loaded model and has its own inputs and outputs.
 */
public interface InferenceSession extends AutoCloseable {

    /**
     * How the model's inputs are filled at each cell: read from the engine's metadata (or the input spec) and the user's
     * axis bindings when the session opened, which refused any input it could not fill.
     */
    io.inferbench.inputs.InputPlan inputs();

    /** The model's outputs, in order, as the engine declares them; the first is what {@link Runner#firstOutput} reads. */
    java.util.List<OutputSpec> outputs();

    /**
     * How the session runs, as each cell records it: the execution provider, the threads in effect, the build of the
     * engine's natives, the device in the engine's own words, and how outputs are received and consumed inside
     * {@link #forward} (it changes what is timed). What the engine reports, not what was asked for.
     *
     * @param engineVersion the engine's version, which the session records beside its own facts
     */
    SessionFacts facts(String engineVersion);

    /** What is shared between the runners of this session and what each has of its own, for the serving report. */
    default String sharing() {
        return "one loaded model shared by every runner, each with inputs and outputs of its own (the engine tells no more)";
    }

    /**
     * Builds the input tensors for {@code [batch, seqLen]} from {@code tokenIds} (row-major, length
     * {@code batch * seqLen}), every row full length, replacing any previous batch. Call outside the timed region.
     *
     * @throws io.inferbench.BenchmarkException if the model cannot take this shape
     */
    default void prepare(int batch, int seqLen, long[] tokenIds) {
        prepare(TokenBatch.full(batch, seqLen, tokenIds));
    }

    /**
     * As {@link #prepare(int, int, long[])}, with the batch's own attention mask (padding is 0). Token inputs take the
     * batch's ids and mask; every other input is filled by its generator ({@link #inputs()}) at the batch's shape.
     */
    void prepare(TokenBatch batch);

    /**
     * Runs one forward pass on the prepared inputs and returns only when every output is in host memory and
     * has been read; the returned checksum of the read values is meant for a blackhole, so the JIT cannot
     * drop the work. Everything a caller times around this call is synchronized with the device.
     */
    long forward();

    /**
     * Whether the session reads the texts of a text workload itself ({@link TokenBatch#texts}): a user's target does its
     * own tokenizing, so the harness hands it the texts and tokenizes nothing for it. An engine takes token ids.
     */
    default boolean takesText() {
        return false;
    }

    /**
     * Where the parts of each {@link #forward} that the session marks itself go (a target's stages): a sweep's cell
     * records them beside the pass. Sessions that mark nothing ignore it.
     */
    default void recordPhasesInto(io.inferbench.measure.PhaseSink sink) {
    }

    /** What one of the session's own marks costs, in nanoseconds, measured when it opened; null for a session without marks. */
    default Double phaseMarkCostNs() {
        return null;
    }

    /** A runner for another thread: the same loaded model, inputs and outputs of its own. Close it before the session. */
    Runner newRunner();

    /** Idempotent; never throws checked exceptions. */
    @Override
    void close();

    /**
     * One thread's handle on a session: {@link #prepare} and {@link #forward} as the session's own, on inputs and
     * outputs of its own, plus {@link #firstOutput} to read what the last pass produced. Not thread-safe itself; any
     * number of runners of one session may run at once.
     */
    interface Runner extends AutoCloseable {
        void prepare(TokenBatch batch);

        /** One pass, synchronized with the device, outputs read back to host memory (as {@link InferenceSession#forward}). */
        long forward();

        /**
         * The first output of the last pass, row-major, as floats, copied from the host memory {@link #forward} left it
         * in: the post-processing a service does per request. Empty when the output is not a float tensor.
         */
        float[] firstOutput();

        /** The parts of the last pass the session marked itself, each summed over the pass, by name; empty for none. */
        default java.util.Map<String, Long> lastPhasesNs() {
            return java.util.Map.of();
        }

        /** Idempotent. */
        @Override
        void close();
    }
}
