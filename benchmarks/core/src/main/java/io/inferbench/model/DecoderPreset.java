package io.inferbench.model;

import java.util.Arrays;
import java.util.Optional;

/**
 * The built-in decoders: {@code tiny-decoder} (hidden 128, 2 layers, 4 heads) for quick runs and tests, and
 * {@code base-decoder} (hidden 768, 6 layers, 8 heads, vocab 30,000), a GPT-style model of {@code base}'s size.
 */
public enum DecoderPreset {
    TINY_DECODER("tiny-decoder", new DecoderConfig(30000, 128, 2, 4, 4 * 128, 2048)),
    BASE_DECODER("base-decoder", new DecoderConfig(30000, 768, 6, 8, 4 * 768, 2048));

    private final String id;
    private final DecoderConfig config;

    DecoderPreset(String id, DecoderConfig config) {
        this.id = id;
        this.config = config;
    }

    public DecoderConfig config() {
        return config;
    }

    /** The name users type. */
    public String id() {
        return id;
    }

    public static Optional<DecoderPreset> named(String name) {
        return Arrays.stream(values()).filter(p -> p.id.equals(name)).findFirst();
    }
}
