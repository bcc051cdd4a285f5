package io.inferbench.backend;

/**
 * One inference engine. Implementations are the only classes that import an engine's API.
 *
 * <p>{@link #open} does all validation a sweep needs up front (model loads, inputs are usable, the device can be
 * used) and throws {@link io.inferbench.BenchmarkException} with the rule and the fix otherwise. It never
 * falls back to another device.
 */
public interface InferenceBackend {
    /** The name used in {@code -Dbench.backend} and in results, e.g. {@code onnxruntime}. */
    String name();

    /** The native engine's version, e.g. ONNX Runtime's {@code 1.23.2}. */
    String engineVersion();

    /** What build of the engine is loaded, e.g. its version and the execution providers compiled in. */
    String buildInfo();

    InferenceSession open(SessionSpec spec);
}
