package io.inferbench.serve;

/**
 * What each served request carries: without a workload, a fixed shape of seeded ids ({@link Fixed}); with one, one of
 * the workload's requests ({@link RequestInputs}). Never null: the absence of a workload is {@link Fixed}.
 */
public sealed interface RequestShape permits RequestShape.Fixed, RequestInputs {
    /** Rows one request's input holds. */
    int rowsPerRequest();

    /**
     * Every request a fixed {@code [samplesPerRequest, seq]} of seeded ids, at the serving sequence length.
     *
     * @param samplesPerRequest rows one request carries ({@code bench.batch} when a single value is given, else 1)
     */
    record Fixed(int samplesPerRequest) implements RequestShape {
        @Override
        public int rowsPerRequest() {
            return samplesPerRequest;
        }
    }
}
