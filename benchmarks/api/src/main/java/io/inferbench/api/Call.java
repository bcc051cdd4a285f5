package io.inferbench.api;

/**
 * One request's work, prepared by {@link InferenceTarget#prepare}: the timed region. The harness times each
 * {@link #run} on its own and consumes its result, so that no work can be optimised away; a call that returns
 * {@code null} has nothing to consume and is refused (before measuring, where the harness tries it first). Mark the parts
 * of the call with {@link TargetContext#stages()}.
 */
@FunctionalInterface
public interface Call {
    /** Does the work once and returns its result (a response, an array, a string); never null. */
    Object run() throws Exception;
}
