package io.inferbench.inputs;

import io.inferbench.BenchmarkException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Plans how a model's inputs are filled, from what the engine declares, the input spec and the axis bindings, and
 * refuses, before anything is measured, every input or axis the harness could not fill: naming it and the fix.
 *
 * <p>Rules, in order:
 * <ol>
 *   <li>A spec must list exactly the model's inputs, each with the model's type and rank; its fixed axes must agree with
 *       the model's, and it may fix or rename a dynamic axis.</li>
 *   <li>The batch axis is the leading dynamic axis: every input's first axis, when dynamic, is it.</li>
 *   <li>The swept axis is {@code -Dbench.seqAxis}, or else the second axis of the token inputs ({@code input_ids},
 *       {@code attention_mask}, {@code token_type_ids}, {@code position_ids}); with neither, the model runs batch only.</li>
 *   <li>Every other dynamic axis needs a size in {@code -Dbench.dims}; a dynamic axis without a name is called
 *       {@code <input>.<index>}.</li>
 *   <li>Token inputs of shape {@code [batch, seq]} are filled from the token batch; every other input by a seeded
 *       generator: floats normal(0, 1), integers uniform in [0, 9], bools true, or what the spec chose.</li>
 * </ol>
 */
public final class InputPlanner {
    /** The default for integer inputs that are not tokens: small, so that an index into any table stays in it. */
    static final ValueGenerator DEFAULT_INTEGERS = new ValueGenerator.Range(0, 9);
    static final String DEFAULT_BATCH = "batch";
    static final String DEFAULT_SEQ = "sequence";

    private InputPlanner() {
    }

    /**
     * @param declared the model's inputs in its order, as the engine reports them (or, for TorchScript, the spec's)
     * @param spec     the input spec, or null
     * @throws BenchmarkException naming the input or axis and the fix
     */
    public static InputPlan plan(String model, List<ModelInput> declared, InputOptions options, InputSpecFile spec) {
        String listing = declared.stream().map(ModelInput::toString).collect(Collectors.joining(", ", "[", "]"));
        String where = "The model " + model + " (inputs " + listing + ")";
        Map<String, InputSpecFile.Entry> chosen = spec == null ? Map.of() : checkSpec(where, declared, spec);
        List<ModelInput> inputs = new ArrayList<>();
        for (ModelInput input : declared) {
            if (input.type() == null) {
                throw new BenchmarkException(where + " has the input '" + input.name() + "' of type " + input.engineType()
                        + ", which the harness cannot fill (it fills float32, float16, int64, int32 and bool)");
            }
            InputSpecFile.Entry entry = chosen.get(input.name());
            inputs.add(entry == null ? input : new ModelInput(input.name(), input.engineType(), input.type(), entry.shape()));
        }
        inputs = nameUnnamedAxes(inputs);

        String batchAxis = inputs.stream().filter(i -> !i.shape().isEmpty() && !i.shape().get(0).isFixed())
                .map(i -> i.shape().get(0).name()).findFirst().orElse(null);
        long fixedBatch = -1;
        if (batchAxis != null) {
            inputs = aliasLeadingAxes(inputs, batchAxis);
        } else {
            fixedBatch = inputs.stream().filter(i -> !i.shape().isEmpty()).mapToLong(i -> i.shape().get(0).size())
                    .findFirst().orElseThrow(() -> new BenchmarkException(where + " has no input with an axis to batch; "
                            + "the harness measures models whose inputs have a leading batch axis"));
        }

        Set<String> dynamic = new LinkedHashSet<>();
        inputs.forEach(i -> i.shape().stream().filter(d -> !d.isFixed()).forEach(d -> dynamic.add(d.name())));
        String seqAxis = null;
        long fixedSeqLen = -1;
        if (options.seqAxis() != null) {
            seqAxis = options.seqAxis();
            if (seqAxis.equals(batchAxis) || !dynamic.contains(seqAxis)) {
                throw new BenchmarkException(where + ": -Dbench.seqAxis=" + seqAxis + (seqAxis.equals(batchAxis)
                        ? " is the batch axis, which follows -Dbench.batch" : " is not one of its dynamic axes")
                        + ". Name one of " + others(dynamic, batchAxis, null));
            }
        } else {
            for (ModelInput input : inputs) {
                if (InputRole.of(input.name(), input.type()).isToken() && input.shape().size() == 2) {
                    Dim d = input.shape().get(1);
                    if (d.isFixed()) {
                        fixedSeqLen = d.size();
                    } else {
                        seqAxis = d.name();
                    }
                    break;
                }
            }
        }

        Map<String, Long> dims = new TreeMap<>();
        for (Map.Entry<String, Long> bound : options.dims().entrySet()) {
            String axis = bound.getKey();
            if (axis.equals(batchAxis) || axis.equals(seqAxis)) {
                throw new BenchmarkException(where + ": -Dbench.dims binds '" + axis + "', which is the "
                        + (axis.equals(batchAxis) ? "batch axis (it follows -Dbench.batch)" : "swept axis (it follows -Dbench.seq)")
                        + "; remove it from -Dbench.dims");
            }
            if (!dynamic.contains(axis)) {
                throw new BenchmarkException(where + ": -Dbench.dims binds '" + axis + "', which is not one of its dynamic "
                        + "axes. Its axes to bind: " + others(dynamic, batchAxis, seqAxis));
            }
            if (bound.getValue() <= 0) {
                throw new BenchmarkException(where + ": -Dbench.dims gives axis '" + axis + "' the size " + bound.getValue()
                        + "; a size must be positive");
            }
            dims.put(axis, bound.getValue());
        }
        List<String> unbound = others(dynamic, batchAxis, seqAxis).stream().filter(a -> !dims.containsKey(a)).toList();
        if (!unbound.isEmpty()) {
            throw new BenchmarkException(where + " has dynamic axes with no size: " + unbound + ". Set "
                    + unbound.stream().map(a -> a + "=N").collect(Collectors.joining(",", "-Dbench.dims=", ""))
                    + (seqAxis == null ? ", or sweep one of them with -Dbench.seqAxis=NAME" : ""));
        }

        List<PlannedInput> planned = new ArrayList<>();
        for (ModelInput input : inputs) {
            InputSpecFile.Entry entry = chosen.get(input.name());
            InputRole role = InputRole.of(input.name(), input.type());
            boolean tokenShaped = role.isToken() && input.shape().size() == 2 && !input.shape().get(0).isFixed()
                    && (seqAxis != null ? seqAxis.equals(input.shape().get(1).name())
                    : fixedSeqLen >= 0 && input.shape().get(1).size() == fixedSeqLen);
            ValueGenerator values = entry != null && entry.values() != null ? entry.values() : null;
            if (values != null || !tokenShaped) {
                role = InputRole.GENERATED;
                if (values == null) {
                    values = defaultValues(input);
                }
                String unfit = values.unfit(input.type());
                if (unfit != null) {
                    throw new BenchmarkException(where + ": input '" + input.name() + "' (" + input.type() + "): " + unfit);
                }
                if (values instanceof ValueGenerator.Npy && (batchAxis == null || input.shape().isEmpty()
                        || !batchAxis.equals(input.shape().get(0).name()))) {
                    throw new BenchmarkException(where + ": input '" + input.name() + "' takes .npy rows, but its first "
                            + "axis is not the batch axis; rows are taken in turn along the batch axis");
                }
            }
            planned.add(new PlannedInput(input.name(), input.type(), input.shape(), role, values));
        }
        return new InputPlan(planned, batchAxis, seqAxis, dims, fixedBatch, fixedSeqLen,
                spec == null ? null : spec.file().toString(), spec == null ? null : spec.sha256());
    }

    private static ValueGenerator defaultValues(ModelInput input) {
        if (input.type().isFloat()) {
            return new ValueGenerator.Normal();
        }
        if (input.type() == ElementType.BOOL) {
            return new ValueGenerator.Ones();
        }
        return switch (InputRole.of(input.name(), input.type())) {
            case TOKEN_IDS -> new ValueGenerator.Ids();
            case ATTENTION_MASK -> new ValueGenerator.Ones();
            case TOKEN_TYPE_IDS, POSITION_IDS -> new ValueGenerator.Zeros();
            case GENERATED -> DEFAULT_INTEGERS;
        };
    }

    /** The spec's entries by name, once each matches the model's input of that name. */
    private static Map<String, InputSpecFile.Entry> checkSpec(String where, List<ModelInput> declared, InputSpecFile spec) {
        String fix = ". Fix " + spec.file();
        Map<String, ModelInput> byName = new LinkedHashMap<>();
        declared.forEach(i -> byName.put(i.name(), i));
        Map<String, InputSpecFile.Entry> entries = new LinkedHashMap<>();
        for (InputSpecFile.Entry entry : spec.inputs()) {
            ModelInput input = byName.get(entry.name());
            if (input == null) {
                throw new BenchmarkException(where + " has no input '" + entry.name() + "', which the input spec lists"
                        + fix + ": its inputs are " + byName.keySet());
            }
            if (input.type() != null && input.type() != entry.type()) {
                throw new BenchmarkException(where + ": input '" + entry.name() + "' is " + input.type()
                        + ", but the input spec says " + entry.type() + fix);
            }
            if (input.shape().size() != entry.shape().size()) {
                throw new BenchmarkException(where + ": input '" + entry.name() + "' has rank " + input.shape().size()
                        + " " + input.shape() + ", but the input spec gives rank " + entry.shape().size() + " "
                        + entry.shape() + fix);
            }
            for (int a = 0; a < entry.shape().size(); a++) {
                Dim model = input.shape().get(a);
                Dim given = entry.shape().get(a);
                if (model.isFixed() && (!given.isFixed() || given.size() != model.size())) {
                    throw new BenchmarkException(where + ": input '" + entry.name() + "' has axis " + a + " fixed at "
                            + model.size() + ", but the input spec gives " + given + fix);
                }
            }
            entries.put(entry.name(), entry);
        }
        List<String> missing = byName.keySet().stream().filter(n -> !entries.containsKey(n)).toList();
        if (!missing.isEmpty()) {
            throw new BenchmarkException("The input spec " + spec.file() + " lacks the model's input(s) " + missing
                    + "; list every input. " + where.substring(4));
        }
        return entries;
    }

    /** Gives each unnamed dynamic axis a name: the leading one {@code batch}, else {@code <input>.<index>}. */
    private static List<ModelInput> nameUnnamedAxes(List<ModelInput> inputs) {
        List<ModelInput> named = new ArrayList<>();
        for (ModelInput input : inputs) {
            List<Dim> shape = new ArrayList<>();
            boolean token = InputRole.of(input.name(), input.type()).isToken() && input.shape().size() == 2;
            for (int a = 0; a < input.shape().size(); a++) {
                Dim d = input.shape().get(a);
                if (!d.isFixed() && (d.name() == null || d.name().isEmpty())) {
                    d = Dim.named(a == 0 ? DEFAULT_BATCH : token && a == 1 ? DEFAULT_SEQ : input.name() + "." + a);
                }
                shape.add(d);
            }
            named.add(new ModelInput(input.name(), input.engineType(), input.type(), shape));
        }
        return named;
    }

    /** Every input's dynamic leading axis, and every other axis of the same name, becomes {@code batchAxis}. */
    private static List<ModelInput> aliasLeadingAxes(List<ModelInput> inputs, String batchAxis) {
        Set<String> aliases = inputs.stream().filter(i -> !i.shape().isEmpty() && !i.shape().get(0).isFixed())
                .map(i -> i.shape().get(0).name()).collect(Collectors.toSet());
        return inputs.stream().map(i -> new ModelInput(i.name(), i.engineType(), i.type(), i.shape().stream()
                .map(d -> !d.isFixed() && aliases.contains(d.name()) ? Dim.named(batchAxis) : d).toList())).toList();
    }

    private static List<String> others(Set<String> dynamic, String batchAxis, String seqAxis) {
        return dynamic.stream().filter(a -> !a.equals(batchAxis) && !a.equals(seqAxis)).toList();
    }
}
