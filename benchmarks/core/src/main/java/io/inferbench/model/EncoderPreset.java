package io.inferbench.model;

import java.util.Locale;

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
}
