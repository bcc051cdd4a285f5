package io.inferbench.model;

import java.util.Locale;

/**
 * The numeric format of a built-in encoder's weights and arithmetic. Every variant is written from the same seeded
 * float32 weights, so two variants of one preset differ only in precision: their outputs can be compared on the same
 * inputs, and the difference is the quantization's.
 */
public enum Precision {
    /** float32 weights and activations: the reference. */
    FP32("", "float32"),
    /**
     * Dynamic quantization as the common {@code quantize_dynamic} tool does it with {@code per_channel=True} (its default
     * is one scale per weight tensor): every weight matrix product (the
     * projections, the feed-forward layers and the head) becomes {@code DynamicQuantizeLinear} on the activations (uint8,
     * a scale and zero point per pass) and {@code MatMulInteger} against int8 weights quantized symmetrically per output
     * channel (column), then the int32 result is cast, scaled by the two scales and biased. The attention products,
     * LayerNorm, GELU and the embedding stay float32.
     */
    INT8("-int8", "int8 weights per output channel, uint8 activations quantized per pass"),
    /** float16 weights and activations throughout; the logits are cast to float32 so outputs compare with FP32's. */
    FP16("-fp16", "float16 weights and activations, float32 logits");

    private final String suffix;
    private final String description;

    Precision(String suffix, String description) {
        this.suffix = suffix;
        this.description = description;
    }

    /** What follows the preset's name: {@code ""}, {@code "-int8"}, {@code "-fp16"}. */
    public String suffix() {
        return suffix;
    }

    public String description() {
        return description;
    }

    /** {@code fp32}, {@code int8}, {@code fp16}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
