package io.inferbench.inputs;

import io.inferbench.BenchmarkException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DecoderPlannerTest {
    private static final List<Dim> CACHE = List.of(Dim.named("batch"), Dim.fixed(8), Dim.named("past_sequence"), Dim.fixed(96));
    private static final List<Dim> TOKENS = List.of(Dim.named("batch"), Dim.named("seq"));

    /** A decoder's inputs and outputs with the cache named by {@code past} and {@code present} formats. */
    private static List<ModelInput> inputs(String pastFormat, boolean mask) {
        List<ModelInput> inputs = new ArrayList<>();
        inputs.add(new ModelInput("input_ids", ElementType.INT64, TOKENS));
        if (mask) {
            inputs.add(new ModelInput("attention_mask", ElementType.INT64, List.of(Dim.named("batch"), Dim.named("total"))));
        }
        for (int i = 0; i < 2; i++) {
            inputs.add(new ModelInput(String.format(pastFormat, i, "key"), ElementType.FLOAT32, CACHE));
            inputs.add(new ModelInput(String.format(pastFormat, i, "value"), ElementType.FLOAT32, CACHE));
        }
        return inputs;
    }

    private static Map<String, List<Dim>> outputs(String presentFormat) {
        Map<String, List<Dim>> outputs = new LinkedHashMap<>();
        outputs.put("logits", List.of(Dim.named("batch"), Dim.named("seq"), Dim.fixed(50257)));
        for (int i = 0; i < 2; i++) {
            outputs.put(String.format(presentFormat, i, "key"), CACHE);
            outputs.put(String.format(presentFormat, i, "value"), CACHE);
        }
        return outputs;
    }

    @Test
    void huggingFaceNamesPairByTheirOwnRule() {
        DecoderLayout layout = DecoderPlanner.plan("gpt2", inputs("past_key_values.%d.%s", true), outputs("present.%d.%s"),
                List.of(), Map.of());
        assertEquals("input_ids", layout.inputIds());
        assertEquals("attention_mask", layout.attentionMask());
        assertNull(layout.positionIds());
        assertEquals("logits", layout.logits());
        assertEquals(new KvPair("past_key_values.0.key", "present.0.key"), layout.pairs().get(0));
        assertEquals(4, layout.cache().size());
        assertEquals(2, layout.cache().get(0).positionAxis());
        // 2 x layers x batch x heads x positions x headDim x 4 bytes
        assertEquals(2L * 2 * 3 * 8 * 70 * 96 * 4, layout.cacheBytes(3, 70));
    }

    @Test
    void otherPastNamesPairWithPresent() {
        DecoderLayout layout = DecoderPlanner.plan("m", inputs("past_%2$s_%1$d", false), outputs("present_%2$s_%1$d"), List.of(), Map.of());
        assertEquals(List.of(new KvPair("past_key_0", "present_key_0"), new KvPair("past_value_0", "present_value_0"),
                new KvPair("past_key_1", "present_key_1"), new KvPair("past_value_1", "present_value_1")), layout.pairs());
    }

    @Test
    void aCacheNamedOtherwiseIsRefusedWithTheNamesAndTheProperty() {
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> DecoderPlanner.plan("m",
                inputs("%2$s_cache_%1$d", false), outputs("%2$s_cache_%1$d_next"), List.of(), Map.of()));
        assertTrue(e.getMessage().contains("key_cache_0, value_cache_0, key_cache_1, value_cache_1"), e.getMessage());
        assertTrue(e.getMessage().contains("-Dbench.kvPairs=INPUT:OUTPUT"), e.getMessage());
        assertTrue(e.getMessage().contains("outputs not paired yet: logits, key_cache_0_next"), e.getMessage());
    }

    @Test
    void kvPairsPairThem() {
        List<KvPair> pairs = KvPair.parse("key_cache_0:key_cache_0_next, value_cache_0:value_cache_0_next,"
                + "key_cache_1:key_cache_1_next,value_cache_1:value_cache_1_next");
        DecoderLayout layout = DecoderPlanner.plan("m", inputs("%2$s_cache_%1$d", false), outputs("%2$s_cache_%1$d_next"), pairs, Map.of());
        assertEquals(pairs, layout.pairs());
    }

    @Test
    void badPairsAreRefusedByName() {
        assertThrows(BenchmarkException.class, () -> KvPair.parse("key_cache_0"));
        BenchmarkException unknownInput = assertThrows(BenchmarkException.class, () -> DecoderPlanner.plan("m",
                inputs("past_key_values.%d.%s", false), outputs("present.%d.%s"), KvPair.parse("nope:present.0.key"), Map.of()));
        assertTrue(unknownInput.getMessage().contains("names the input 'nope'"), unknownInput.getMessage());
        BenchmarkException twice = assertThrows(BenchmarkException.class, () -> DecoderPlanner.plan("m",
                inputs("past_key_values.%d.%s", false), outputs("present.%d.%s"),
                KvPair.parse("past_key_values.0.key:present.0.value"), Map.of()));
        assertTrue(twice.getMessage().contains("present.0.value is paired with more than one cache input"), twice.getMessage());
    }

    @Test
    void aCacheWithTwoUnboundAxesNeedsDims() {
        List<Dim> heads = List.of(Dim.named("batch"), Dim.named("heads"), Dim.named("past_sequence"), Dim.fixed(64));
        List<ModelInput> in = List.of(new ModelInput("input_ids", ElementType.INT64, TOKENS),
                new ModelInput("past_key_values.0.key", ElementType.FLOAT32, heads));
        Map<String, List<Dim>> out = new LinkedHashMap<>();
        out.put("logits", List.of(Dim.named("batch"), Dim.fixed(10)));
        out.put("present.0.key", heads);
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> DecoderPlanner.plan("m", in, out, List.of(), Map.of()));
        assertTrue(e.getMessage().contains("dynamic axes heads, past_sequence") && e.getMessage().contains("-Dbench.dims"), e.getMessage());
        DecoderLayout bound = DecoderPlanner.plan("m", in, out, List.of(), Map.of("heads", 12L));
        assertEquals(List.of(-1L, 12L, -1L, 64L), bound.cache().get(0).sizes());
    }
}
