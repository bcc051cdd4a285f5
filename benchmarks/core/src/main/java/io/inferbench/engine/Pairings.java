package io.inferbench.engine;

import io.inferbench.model.ModelSource;

import java.util.ArrayList;
import java.util.List;

/**
 * Which engine runs which model, once for every stage: engine x device x model, in that order (the order of the run's
 * settings), each pairing kept when the engine opens the model for the run's purpose ({@link Capabilities}), every other
 * one listed with why.
 */
public final class Pairings {
    private Pairings() {
    }

    /** What the sessions are opened for: a forward pass, or generation with a decoder. */
    public enum Purpose {
        FORWARD, GENERATION;

        /** Why {@code engine} does not open {@code source} for this purpose, or null when it does. */
        public String whyNot(String engine, ModelSource source) {
            Capabilities capabilities = Engines.capabilities(engine);
            return this == FORWARD ? capabilities.whyNot(engine, source) : capabilities.whyNotGenerate(engine, source);
        }
    }

    /** Every pairing of the run, in plan order. */
    public static List<Pairing> of(List<String> engines, List<String> devices, List<String> models, Purpose purpose) {
        List<Pairing> pairings = new ArrayList<>();
        for (String engine : engines) {
            for (String device : devices) {
                for (String model : models) {
                    ModelSource source = ModelSource.parse(model);
                    if (purpose.whyNot(engine, source) == null) {
                        pairings.add(new Pairing(engine, device, model, source));
                    }
                }
            }
        }
        return List.copyOf(pairings);
    }

    /** The (engine, model) pairs left out, each as {@code engine x model (why)}. */
    public static List<String> skipped(List<String> engines, List<String> models, Purpose purpose) {
        List<String> skipped = new ArrayList<>();
        for (String engine : engines) {
            for (String model : models) {
                String why = purpose.whyNot(engine, ModelSource.parse(model));
                if (why != null) {
                    skipped.add(engine + " x " + model + " (" + why + ")");
                }
            }
        }
        return List.copyOf(skipped);
    }
}
