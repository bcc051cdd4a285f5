package io.inferbench.model;

/**
 * The input and output names of an exported decoder. {@link #HUGGING_FACE} is what the built-ins use, as Hugging Face's
 * exports name them; {@link #renamed()} is a cache named otherwise ({@code k_cache_0} in, {@code k_cache_0_next} out), for
 * the example of a user decoder that needs {@code -Dbench.kvPairs}.
 */
public record DecoderNames(String inputIds, String positionIds, String pastKeyFormat, String pastValueFormat,
                           String presentKeyFormat, String presentValueFormat, String logits) {
    public static final DecoderNames HUGGING_FACE = new DecoderNames("input_ids", "position_ids",
            "past_key_values.%d.key", "past_key_values.%d.value", "present.%d.key", "present.%d.value", "logits");

    public static DecoderNames renamed() {
        return new DecoderNames("input_ids", "position_ids", "k_cache_%d", "v_cache_%d", "k_cache_%d_next",
                "v_cache_%d_next", "logits");
    }

    public String pastKey(int layer) {
        return String.format(java.util.Locale.ROOT, pastKeyFormat, layer);
    }

    public String pastValue(int layer) {
        return String.format(java.util.Locale.ROOT, pastValueFormat, layer);
    }

    public String presentKey(int layer) {
        return String.format(java.util.Locale.ROOT, presentKeyFormat, layer);
    }

    public String presentValue(int layer) {
        return String.format(java.util.Locale.ROOT, presentValueFormat, layer);
    }
}
