package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import io.inferbench.engine.Engines;
import io.inferbench.engine.InferenceEngine;
import io.inferbench.engine.InferenceSession;
import io.inferbench.inputs.InputPlan;
import io.inferbench.model.ModelSource;
import io.inferbench.runner.Preflight;
import io.inferbench.runner.SweepOptions;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the run's models have an axis for the sweep's lengths to bind, settled before the plan's cells are made: a
 * model with none (an image model, or an audio model whose frames are bound by {@code -Dbench.dims}) runs batch only,
 * one cell per batch at {@code seqLen} 0, instead of a cell per bucket that would measure the same shape again.
 *
 * <p>Each user model is opened once, on the CPU, on the first backend that loads it, only to read its inputs (the
 * preflight then opens it on every backend and device). The built-in encoders always sweep their token axis.
 */
public final class SweptAxis {
    private SweptAxis() {
    }

    /**
     * A model's inputs as the first engine of the plan that loads it reads them ({@code input_ids int64 [batch, seq]},
     * ...), for a refusal that must name them; empty when no engine of the plan loads it.
     */
    public static List<String> describeInputs(SweepOptions options, String model) {
        ModelSource source = ModelSource.parse(model);
        java.util.Optional<String> engine = options.plan().backends().stream()
                .filter(b -> Engines.names().contains(b) && Engines.canLoad(b, source)).findFirst();
        if (engine.isEmpty()) {
            return List.of();
        }
        ModelSource located = source instanceof ModelSource.Builtin
                ? ModelSource.parse(new io.inferbench.model.ModelResolver(options.engines().cacheDir(), options.rules().seed())
                .locate(source).toString()) : source;
        InferenceEngine backend = Engines.create(engine.get(), options.engines().nativeCacheDir());
        try (InferenceSession session = backend.open(options.sessionDefaults().spec(located, "cpu"))) {
            return session.inputs().describe();
        }
    }

    /**
     * The options with the plan's lengths set to {@code [0]} when every model runs batch only; unchanged when every model
     * has a swept axis.
     *
     * @param lengthsGiven  the user set {@code -Dbench.seq}: refused for models with no axis to bind it
     * @param textWorkload  a text workload will be run: refused for models without a token-ids input
     * @throws BenchmarkException when some models sweep an axis and others do not, a text workload meets a model without
     *                            token inputs, or a model's inputs cannot be filled
     */
    public static SweepOptions bind(SweepOptions options, boolean lengthsGiven, boolean textWorkload, PrintStream log) {
        Map<String, Boolean> batchOnly = new LinkedHashMap<>();
        for (String model : options.plan().models()) {
            ModelSource source = ModelSource.parse(model);
            if (source instanceof ModelSource.Builtin) {
                batchOnly.put(model, false);
                continue;
            }
            // A target takes any length: its model's axes are the target's to bind, so only an engine's plan is read.
            java.util.Optional<String> engine = options.plan().backends().stream()
                    .filter(b -> Engines.names().contains(b) && Engines.canLoad(b, source)).findFirst();
            if (engine.isEmpty()) {
                batchOnly.put(model, false);
                continue;
            }
            io.inferbench.model.ModelResolver.requireNotEmpty(source.file());
            String backendName = engine.get();
            InferenceEngine backend = Engines.create(backendName, options.engines().nativeCacheDir());
            try (InferenceSession session = backend.open(options.sessionDefaults().spec(source, "cpu"))) {
                InputPlan plan = session.inputs();
                batchOnly.put(model, plan.batchOnly());
                if (textWorkload && !plan.takesTokenIds()) {
                    throw new BenchmarkException("The text workload (-Dbench.text) tokenizes text "
                            + "into input_ids, but the model " + model + " takes no token ids (its inputs: "
                            + String.join(", ", plan.describe()) + "). Drop the workload for this model; serving "
                            + "(-Dbench.serve) builds its requests from the inputs' generators instead");
                }
            } catch (BenchmarkException e) {
                throw new BenchmarkException("Preflight failed for " + backendName + " with model " + model + ". "
                        + e.getMessage(), e);
            }
        }
        List<String> without = new ArrayList<>();
        batchOnly.forEach((model, none) -> {
            if (none) {
                without.add(model);
            }
        });
        if (without.isEmpty()) {
            return options;
        }
        if (without.size() != batchOnly.size()) {
            throw new BenchmarkException("The models " + without + " have no axis for the sweep's lengths to bind (they run "
                    + "batch only), and the others do: run them in separate runs, or name an axis of theirs to sweep with "
                    + "-Dbench.seqAxis");
        }
        if (lengthsGiven) {
            throw new BenchmarkException("-Dbench.seq gives lengths, but " + (without.size() == 1 ? "the model " : "the models ")
                    + without + " have no axis for them to bind; drop -Dbench.seq (the model runs batch only), or name the "
                    + "axis to sweep with -Dbench.seqAxis");
        }
        log.println("[inferbench] " + String.join(", ", without) + ": no axis for the sweep's lengths to bind (no token "
                + "inputs, no -Dbench.seqAxis), so the sweep runs batch only: one cell per batch, shown as seq -");
        return options.batchOnly();
    }
}
