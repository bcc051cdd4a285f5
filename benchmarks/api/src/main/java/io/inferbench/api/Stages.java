package io.inferbench.api;

/**
 * Marks the parts of a call, each recorded into its own histogram beside the whole call's, per cell in a sweep and per
 * load point under serving; the time of the call outside every stage is reported as its own row, so the rows add up to
 * the call. Use it inside {@link Call#run}, from the thread that runs the call:
 *
 * <pre>{@code
 * try (Stage s = stages.begin("tokenize")) {
 *     ids = tokenizer.encode(text);
 * }
 * }</pre>
 *
 * A mark costs two clock reads and a histogram update, a few tens of nanoseconds; the run measures it and records it
 * with each cell. Stages may repeat within a call (their times add up) but should not nest: a nested stage's time is
 * counted in both.
 */
public interface Stages {
    /** Starts timing the stage {@code name}; closing what it returns ends it. */
    Stage begin(String name);
}
