package io.inferbench.measure;

/**
 * The first-use costs of one fresh JVM, measured before any warm-up and never mixed into the steady-state latency.
 *
 * @param engineLoadMs     loading the engine's native library and creating its environment
 * @param sessionCreateMs  creating the session: reading the model, graph optimisation, provider set-up. For a built-in
 *                         model on DJL this includes generating its seeded weights in Java (seconds for {@code base}),
 *                         so compare engines' cold starts on model files, not on built-ins
 * @param firstInferenceMs the JVM's first forward pass, synchronized like every other pass, at the shape of the first
 *                         cell it ran
 */
public record ColdStart(double engineLoadMs, double sessionCreateMs, double firstInferenceMs) {
}
