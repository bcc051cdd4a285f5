package io.inferbench.backend;

/**
 * A loaded model on one device, with one prepared input batch.
 *
 * <p>Lifecycle: {@link #prepare} (allocates and fills input tensors, never timed), then any number of
 * {@link #forward} calls (the timed region), then {@link #close}. Not thread-safe: one caller at a time.
 */
public interface InferenceSession extends AutoCloseable {

    InputLayout inputLayout();

    /** The execution provider(s) actually configured, e.g. {@code CPUExecutionProvider}. */
    String executionProvider();

    /** The intra-op thread count the session was configured with. */
    int intraOpThreads();

    /** The inter-op thread count the session was configured with. */
    int interOpThreads();

    /** Which build of the engine's natives: e.g. {@code cpu build}, or a CUDA flavor such as {@code cu124}. */
    String engineFlavor();

    /** The device the engine reports the session is on, in the engine's own words (e.g. DJL's {@code cpu()}). */
    String deviceUsed();

    /** How outputs are received and consumed; recorded with each cell because it changes what is timed. */
    String outputHandling();

    /**
     * Builds the input tensors for {@code [batch, seqLen]} from {@code tokenIds} (row-major, length
     * {@code batch * seqLen}), replacing any previous batch. Call outside the timed region.
     *
     * @throws io.inferbench.BenchmarkException if the model cannot take this shape
     */
    void prepare(int batch, int seqLen, long[] tokenIds);

    /**
     * Runs one forward pass on the prepared inputs and returns only when every output is in host memory and
     * has been read; the returned checksum of the read values is meant for a blackhole, so the JIT cannot
     * drop the work. Everything a caller times around this call is synchronized with the device.
     */
    long forward();

    /** Idempotent; never throws checked exceptions. */
    @Override
    void close();
}
