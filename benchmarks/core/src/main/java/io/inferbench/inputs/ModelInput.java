package io.inferbench.inputs;

import java.util.List;

/**
 * One input as the engine (or an input spec) declares it.
 *
 * @param engineType the type in the engine's words, for messages
 * @param type       the type as the harness fills it; null when the harness cannot fill this type
 * @param shape      each axis fixed or named; a dynamic axis without a name has a null or empty name
 */
public record ModelInput(String name, String engineType, ElementType type, List<Dim> shape) {
    public ModelInput {
        shape = List.copyOf(shape);
    }

    public ModelInput(String name, ElementType type, List<Dim> shape) {
        this(name, type.label(), type, shape);
    }

    @Override
    public String toString() {
        return name + " " + engineType + " " + shape;
    }
}
