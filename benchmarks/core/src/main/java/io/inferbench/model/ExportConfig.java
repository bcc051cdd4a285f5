package io.inferbench.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What an export folder's {@code config.json} (transformers' model config) says about the decoder, under the keys its
 * model families use. Each value is null when the config does not give it. These are <b>claims to check against the
 * graphs, never trusted over them</b>: the engine compares the vocabulary with the logits, the layers with the cache
 * tensors and the heads with the cache's heads axis, and refuses a folder whose config is another model's.
 *
 * @param vocabSize    {@code vocab_size}
 * @param layers       the decoder's: {@code num_hidden_layers}, {@code n_layer}, {@code decoder_layers},
 *                     {@code num_decoder_layers} or {@code num_layers}
 * @param kvHeads      {@code num_key_value_heads} (grouped-query attention), else the attention heads
 *                     ({@code num_attention_heads}, {@code n_head}, {@code num_heads}, {@code decoder_attention_heads})
 * @param maxPositions {@code max_position_embeddings}, {@code n_positions} or {@code max_target_positions}
 * @param eosTokenId   {@code eos_token_id} (the first, where it is a list); recorded, not used to stop: every generation
 *                     makes the tokens asked for, as serving benchmarks run with the end-of-sequence ignored
 * @param decoderStartTokenId {@code decoder_start_token_id}: the token an encoder-decoder's decoder starts from
 */
public record ExportConfig(Path file, Integer vocabSize, Integer layers, Integer kvHeads, Integer maxPositions,
                           Integer eosTokenId, Integer decoderStartTokenId) {

    public static ExportConfig read(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new BenchmarkException("Could not read " + file + " as JSON: " + e.getMessage() + ". Fix it, or remove it: "
                    + "the harness reads the decoder's shape from its graphs, and the config only to check them", e);
        }
        if (root == null || !root.isObject()) {
            throw new BenchmarkException(file + " is not a JSON object as transformers writes a config.json. Fix it, or remove "
                    + "it: the harness reads the decoder's shape from its graphs");
        }
        Integer heads = integer(file, root, "num_attention_heads", "n_head", "num_heads", "decoder_attention_heads");
        Integer kvHeads = integer(file, root, "num_key_value_heads");
        return new ExportConfig(file, integer(file, root, "vocab_size"),
                integer(file, root, "num_hidden_layers", "n_layer", "decoder_layers", "num_decoder_layers", "num_layers"),
                kvHeads != null ? kvHeads : heads, integer(file, root, "max_position_embeddings", "n_positions",
                "max_target_positions"), integer(file, root, "eos_token_id"), integer(file, root, "decoder_start_token_id"));
    }

    /** The first of {@code keys} the config has, as a whole number (the first element of a list). */
    private static Integer integer(Path file, JsonNode root, String... keys) {
        for (String key : keys) {
            JsonNode value = root.get(key);
            if (value == null || value.isNull()) {
                continue;
            }
            JsonNode number = value.isArray() && !value.isEmpty() ? value.get(0) : value;
            if (!number.isIntegralNumber()) {
                throw new BenchmarkException(file + ": \"" + key + "\" is " + value + ", not a whole number. Fix it, or remove it");
            }
            return number.intValue();
        }
        return null;
    }

    /** The values it gives, for the record: {@code "vocab_size 1000, layers 2, ..."}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        add(parts, "vocab_size", vocabSize);
        add(parts, "layers", layers);
        add(parts, "kv heads", kvHeads);
        add(parts, "positions", maxPositions);
        add(parts, "eos_token_id", eosTokenId);
        add(parts, "decoder_start_token_id", decoderStartTokenId);
        return parts.isEmpty() ? "none of the keys checked" : String.join(", ", parts);
    }

    private static void add(List<String> parts, String name, Integer value) {
        if (value != null) {
            parts.add(name + " " + value);
        }
    }
}
