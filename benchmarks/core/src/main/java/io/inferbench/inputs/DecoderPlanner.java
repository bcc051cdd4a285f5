package io.inferbench.inputs;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans how generation drives a decoder ({@link DecoderLayout}) from its declared inputs and outputs, and refuses, naming
 * the inputs and the property, what it cannot drive.
 *
 * <p><b>Pairing the cache.</b> The pairs given in {@code -Dbench.kvPairs} come first. Every other input whose name starts
 * with {@code past} pairs with the output named as Hugging Face's exports name it: {@code past_key_values.N.key} with
 * {@code present.N.key}, and any other {@code past…} with {@code present…} ({@code past_key_0} with {@code present_key_0}).
 * A cache input's batch axis is its first; of its other axes, the one dynamic axis not bound by {@code -Dbench.dims} is
 * the axis it grows along.
 */
public final class DecoderPlanner {
    /** The bool input of a merged export that chooses the branch with a cache, as optimum names it. */
    public static final String BRANCH_FLAG = "use_cache_branch";

    private DecoderPlanner() {
    }

    /**
     * @param model   the model's name, for messages
     * @param inputs  the model's inputs, in its order
     * @param outputs the model's outputs by name, each with its shape
     * @param pairs   {@code -Dbench.kvPairs}
     * @param dims    {@code -Dbench.dims}: sizes of cache axes that are dynamic in the model but fixed in use
     */
    public static DecoderLayout plan(String model, List<ModelInput> inputs, Map<String, List<Dim>> outputs, List<KvPair> pairs,
                                     Map<String, Long> dims) {
        return plan(model, inputs, outputs, pairs, dims, Map.of());
    }

    /**
     * As above, for the steps' graph of a split export whose first pass ({@code firstPassOutputs}, its outputs) makes
     * caches the steps' graph takes but does not output: an encoder-decoder's cross-attention caches
     * ({@code past_key_values.N.encoder.key} from {@code present.N.encoder.key}), fed unchanged to every step.
     */
    public static DecoderLayout plan(String model, List<ModelInput> inputs, Map<String, List<Dim>> outputs, List<KvPair> pairs,
                                     Map<String, Long> dims, Map<String, List<Dim>> firstPassOutputs) {
        Map<String, ModelInput> byName = new LinkedHashMap<>();
        inputs.forEach(i -> byName.put(i.name(), i));
        Map<String, String> paired = new LinkedHashMap<>();
        for (KvPair pair : pairs) {
            if (!byName.containsKey(pair.past())) {
                throw new BenchmarkException("-Dbench.kvPairs names the input '" + pair.past() + "', which " + model
                        + " does not have. Its inputs: " + String.join(", ", byName.keySet()));
            }
            if (!outputs.containsKey(pair.present())) {
                throw new BenchmarkException("-Dbench.kvPairs names the output '" + pair.present() + "', which " + model
                        + " does not have. Its outputs: " + String.join(", ", outputs.keySet()));
            }
            paired.put(pair.past(), pair.present());
        }
        String ids = null;
        String positions = null;
        String mask = null;
        String branch = null;
        String encoderStates = null;
        String encoderMask = null;
        Map<String, String> cross = new LinkedHashMap<>();
        List<String> unpaired = new ArrayList<>();
        for (ModelInput input : inputs) {
            String name = input.name();
            if (paired.containsKey(name)) {
                continue;
            }
            if (name.equals(DecoderLayout.ENCODER_STATES)) {
                encoderStates = name;
                continue;
            }
            if (name.equals(DecoderLayout.ENCODER_MASK) && input.type() != null && input.type().isInteger()) {
                encoderMask = name;
                continue;
            }
            if (input.type() == ElementType.BOOL && input.shape().size() <= 1) {
                if (!name.equals(BRANCH_FLAG)) {
                    throw new BenchmarkException(model + " has a bool input " + name + " " + input.shape() + ", the shape of a "
                            + "merged decoder's branch flag; generation knows optimum's " + BRANCH_FLAG + " (false on the "
                            + "prefill, true on each step). Export the model with optimum, or export its decoder without "
                            + "the merge (decoder_model.onnx with decoder_with_past_model.onnx)");
                }
                branch = name;
                continue;
            }
            if (input.type() != null && input.type().isInteger() && input.shape().size() == 2) {
                switch (InputRole.of(name, input.type())) {
                    case TOKEN_IDS -> { ids = name; continue; }
                    case POSITION_IDS -> { positions = name; continue; }
                    case ATTENTION_MASK -> { mask = name; continue; }
                    default -> { }
                }
            }
            String present = byRule(name, outputs);
            String fromFirstPass = present == null ? byRule(name, firstPassOutputs) : null;
            if (present != null) {
                paired.put(name, present);
            } else if (fromFirstPass != null) {
                cross.put(name, fromFirstPass);
            } else {
                unpaired.add(name);
            }
        }
        List<String> presents = new ArrayList<>(paired.values());
        List<String> freeOutputs = outputs.keySet().stream().filter(o -> !presents.contains(o)).toList();
        if (!unpaired.isEmpty()) {
            throw new BenchmarkException(model + " has inputs that generation cannot fill: " + String.join(", ", unpaired)
                    + ". Generation fills input_ids, position_ids and attention_mask, and feeds each cache input the output "
                    + "of the step before; a cache input pairs by name (past_key_values.N.key with present.N.key, past... "
                    + "with present...). Pair the others with -Dbench.kvPairs=INPUT:OUTPUT,... (outputs not paired yet: "
                    + String.join(", ", freeOutputs) + ")");
        }
        for (String present : presents) {
            if (presents.indexOf(present) != presents.lastIndexOf(present)) {
                throw new BenchmarkException(model + ": the output " + present + " is paired with more than one cache input ("
                        + String.join(", ", paired.entrySet().stream().filter(e -> e.getValue().equals(present)).map(Map.Entry::getKey).toList())
                        + "); pair each cache input with its own output in -Dbench.kvPairs");
            }
        }
        if (ids == null) {
            throw new BenchmarkException(model + " has no integer input_ids of shape [batch, seq], which generation feeds "
                    + "the prompt and each new token through. Its inputs: " + byName.values());
        }
        if (paired.isEmpty()) {
            throw new BenchmarkException(model + " has no key/value cache inputs (past... paired with present... outputs), so "
                    + "it cannot generate step by step. Export it with its cache (e.g. optimum's text-generation-with-past "
                    + "task), or pair its cache with -Dbench.kvPairs=INPUT:OUTPUT,...");
        }
        List<CacheInput> cache = new ArrayList<>();
        for (Map.Entry<String, String> pair : paired.entrySet()) {
            // a merged encoder-decoder's cross-attention caches pass through it: by optimum's name, beside its encoder states
            boolean crossByName = encoderStates != null && pair.getKey().contains(".encoder.");
            cache.add(cacheInput(model, byName.get(pair.getKey()), pair.getValue(), dims, crossByName));
        }
        for (Map.Entry<String, String> pair : cross.entrySet()) {
            cache.add(cacheInput(model, byName.get(pair.getKey()), pair.getValue(), dims, true));
        }
        if (freeOutputs.isEmpty()) {
            throw new BenchmarkException(model + ": every output is a cache output; generation needs the logits to pick "
                    + "each next token from");
        }
        String logits = freeOutputs.contains("logits") ? "logits" : freeOutputs.get(0);
        int logitsRank = outputs.get(logits).size();
        if (logitsRank != 2 && logitsRank != 3) {
            throw new BenchmarkException(model + ": the output " + logits + " has shape " + outputs.get(logits)
                    + "; generation picks each next token from logits of [batch, vocab] or [batch, seq, vocab]");
        }
        return new DecoderLayout(ids, byName.get(ids).type(), positions, mask, logits, cache, branch, encoderStates, encoderMask);
    }

    /**
     * Plans the prefill graph of a split export ({@code decoder_model.onnx}) beside the plan of its steps' graph
     * ({@code decoder_with_past_model.onnx}), and refuses a pair that disagrees: the prefill must take only the prompt
     * (ids, positions, mask), and output the logits and every cache tensor the steps take, of the same shape.
     *
     * @param model   the prefill graph's name, for messages
     * @param steps   the steps' graph's plan
     * @param stepsModel the steps' graph's name, for messages
     */
    public static DecoderLayout planPrefill(String model, List<ModelInput> inputs, Map<String, List<Dim>> outputs,
                                            DecoderLayout steps, String stepsModel) {
        String ids = null;
        String positions = null;
        String mask = null;
        String encoderStates = null;
        String encoderMask = null;
        ElementType idsType = null;
        List<String> others = new ArrayList<>();
        for (ModelInput input : inputs) {
            if (input.name().equals(DecoderLayout.ENCODER_STATES)) {
                encoderStates = input.name();
                continue;
            }
            if (input.name().equals(DecoderLayout.ENCODER_MASK)) {
                encoderMask = input.name();
                continue;
            }
            InputRole role = input.type() != null && input.type().isInteger() && input.shape().size() == 2
                    ? InputRole.of(input.name(), input.type()) : null;
            if (role == InputRole.TOKEN_IDS) {
                ids = input.name();
                idsType = input.type();
            } else if (role == InputRole.POSITION_IDS) {
                positions = input.name();
            } else if (role == InputRole.ATTENTION_MASK) {
                mask = input.name();
            } else {
                others.add(input.toString());
            }
        }
        if (!others.isEmpty()) {
            throw new BenchmarkException(model + " is the prefill of a split export, so it takes the prompt only (input_ids, "
                    + "position_ids, attention_mask); it also takes " + String.join(", ", others) + ". Export the pair again "
                    + "with optimum, or give one merged decoder");
        }
        if (ids == null) {
            throw new BenchmarkException(model + " has no integer input_ids of shape [batch, seq], which the prefill feeds the "
                    + "prompt through. Its inputs: " + inputs);
        }
        List<String> disagreements = new ArrayList<>();
        if (!outputs.containsKey(steps.logits())) {
            disagreements.add(stepsModel + " gives " + steps.logits() + " but " + model + " has no such output");
        }
        for (CacheInput cache : steps.cache()) {
            List<Dim> made = outputs.get(cache.present());
            if (made == null) {
                disagreements.add(stepsModel + " takes " + cache.past() + " " + cache.describe() + ", paired with "
                        + cache.present() + ", which " + model + " does not output");
                continue;
            }
            for (int axis = 1; axis < cache.sizes().size(); axis++) {
                long size = cache.sizes().get(axis);
                if (axis != cache.positionAxis() && made.size() == cache.sizes().size() && made.get(axis).isFixed()
                        && made.get(axis).size() != size) {
                    disagreements.add(model + "'s " + cache.present() + " " + made + " differs from " + stepsModel + "'s "
                            + cache.past() + " " + cache.describe() + " at axis " + axis);
                }
            }
            if (made.size() != cache.sizes().size()) {
                disagreements.add(model + "'s " + cache.present() + " " + made + " has " + made.size() + " axes, " + stepsModel
                        + "'s " + cache.past() + " " + cache.describe() + " " + cache.sizes().size());
            }
        }
        if (!disagreements.isEmpty()) {
            throw new BenchmarkException("The two decoders of the split export disagree: " + String.join("; ", disagreements)
                    + ". The prefill's outputs must be the steps' cache inputs: export both from the same model, in one "
                    + "optimum export");
        }
        return new DecoderLayout(ids, idsType, positions, mask, steps.logits(), List.of(), null, encoderStates, encoderMask);
    }

    /** The output a {@code past…} input pairs with by Hugging Face's naming, or null. */
    static String byRule(String input, Map<String, List<Dim>> outputs) {
        List<String> candidates = new ArrayList<>();
        if (input.startsWith("past_key_values")) {
            candidates.add("present" + input.substring("past_key_values".length()));
        }
        if (input.startsWith("past")) {
            candidates.add("present" + input.substring("past".length()));
        }
        return candidates.stream().filter(outputs::containsKey).findFirst().orElse(null);
    }

    private static CacheInput cacheInput(String model, ModelInput input, String present, Map<String, Long> dims, boolean cross) {
        if (input.type() != ElementType.FLOAT32 && input.type() != ElementType.FLOAT16) {
            throw new BenchmarkException(model + ": the cache input " + input.name() + " is " + input.engineType()
                    + "; generation feeds float32 or float16 caches");
        }
        List<Dim> shape = input.shape();
        if (shape.size() < 2) {
            throw new BenchmarkException(model + ": the cache input " + input.name() + " has shape " + shape
                    + "; a cache has a batch axis and a positions axis at least");
        }
        List<Long> sizes = new ArrayList<>();
        List<Integer> growing = new ArrayList<>();
        List<String> growingNames = new ArrayList<>();
        sizes.add(-1L);
        for (int i = 1; i < shape.size(); i++) {
            Dim d = shape.get(i);
            if (d.isFixed()) {
                sizes.add(d.size());
            } else if (d.name() != null && dims.containsKey(d.name())) {
                sizes.add(dims.get(d.name()));
            } else {
                sizes.add(-1L);
                growing.add(i);
                growingNames.add(d.name() == null || d.name().isEmpty() ? input.name() + "." + i : d.name());
            }
        }
        if (growing.size() != 1) {
            throw new BenchmarkException(model + ": the cache input " + input.name() + " " + shape + " has "
                    + (growing.isEmpty() ? "no dynamic axis to grow along" : "dynamic axes " + String.join(", ", growingNames))
                    + "; generation grows one of them, the positions. Bind the others with -Dbench.dims=NAME=SIZE,...");
        }
        return new CacheInput(input.name(), present, input.type(), sizes, growing.get(0), cross);
    }
}
