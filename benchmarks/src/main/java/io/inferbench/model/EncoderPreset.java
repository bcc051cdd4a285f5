package io.inferbench.model;

import io.inferbench.BenchmarkException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The built-in encoder sizes. {@code tiny} is the CPU default; {@code base} is BERT-base-like with 6 layers. */
public enum EncoderPreset {
    TINY(new EncoderConfig(30000, 128, 2, 4, 4 * 128, 2)),
    BASE(new EncoderConfig(30000, 768, 6, 8, 4 * 768, 2));

    private final EncoderConfig config;

    EncoderPreset(EncoderConfig config) {
        this.config = config;
    }

    public EncoderConfig config() {
        return config;
    }

    /** The name users type: {@code tiny}, {@code base}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static boolean isPresetName(String name) {
        return Arrays.stream(values()).anyMatch(p -> p.id().equals(name));
    }

    public static EncoderPreset fromId(String name) {
        return Arrays.stream(values())
                .filter(p -> p.id().equals(name))
                .findFirst()
                .orElseThrow(() -> new BenchmarkException("Unknown built-in model '" + name + "': expected one of "
                        + Arrays.stream(values()).map(EncoderPreset::id).collect(Collectors.joining(", "))));
    }
}
