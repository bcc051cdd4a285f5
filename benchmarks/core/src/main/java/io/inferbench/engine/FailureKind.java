package io.inferbench.engine;

/**
 * What a failure inside a cell was, as the engine that ran it says ({@link InferenceEngine#classify}): a failure none of
 * these covers is a crash of inferbench itself (a bug), which a run reports with exit code 3, never as a finding about
 * the model.
 */
public enum FailureKind {
    /** The harness or the engine refused what it was asked, naming the problem ({@link io.inferbench.BenchmarkException}). */
    REFUSAL,
    /** The engine failed on the model: its own exception type, from inside its API or its natives. */
    ENGINE_OR_MODEL,
    /** The JVM or the engine ran out of memory: a resource the model needs at this shape. */
    OUT_OF_MEMORY
}
