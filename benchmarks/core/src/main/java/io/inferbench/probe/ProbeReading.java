package io.inferbench.probe;

import java.util.Map;

/**
 * What one {@link Probe} read over a window: its figures by name (each name says its unit, as {@code minorFaultsPerPass}),
 * where they came from, or why there are none.
 *
 * @param figures     the figures; null when {@code unavailable}
 * @param source      what was read, e.g. {@code /proc/self/stat}
 * @param unavailable why nothing could be read here; null when {@code figures} were
 */
public record ProbeReading(Map<String, Double> figures, String source, String unavailable) {
    public ProbeReading {
        figures = figures == null ? null : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(figures));
    }

    public static ProbeReading unavailable(String source, String why) {
        return new ProbeReading(null, source, why);
    }
}
