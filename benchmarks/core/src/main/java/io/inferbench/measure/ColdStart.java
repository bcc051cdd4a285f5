package io.inferbench.measure;

/**
 * The first-use costs of one fresh JVM, measured before any warm-up and never mixed into the steady-state latency.
 *
 * @param engineLoadMs     loading the engine's native library and creating its environment
 * @param sessionCreateMs  creating the session: reading the model, graph optimisation, provider set-up. For a built-in
 *                         model on an engine that builds it this includes generating its seeded weights in Java (seconds for {@code base}),
 *                         so compare engines' cold starts on model files, not on built-ins
 * @param firstInferenceMs the JVM's first forward pass, synchronized like every other pass, at the shape of the first
 *                         cell it ran
 * @param rssBeforeSessionMb the process's resident set just before the session was created, MiB; null where unknown
 * @param rssAfterSessionMb  just after: the difference is what session creation added (the model's weights, the
 *                           engine's arenas and kernels); null where unknown
 */
public record ColdStart(double engineLoadMs, double sessionCreateMs, double firstInferenceMs, Double rssBeforeSessionMb,
                        Double rssAfterSessionMb) {

    public ColdStart(double engineLoadMs, double sessionCreateMs, double firstInferenceMs) {
        this(engineLoadMs, sessionCreateMs, firstInferenceMs, null, null);
    }

    /** What session creation added to the resident set, MiB; null where unknown. */
    public Double sessionRssMb() {
        return rssBeforeSessionMb == null || rssAfterSessionMb == null ? null : rssAfterSessionMb - rssBeforeSessionMb;
    }
}
