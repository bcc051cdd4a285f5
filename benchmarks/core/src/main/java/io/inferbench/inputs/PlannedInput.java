package io.inferbench.inputs;

import java.util.List;

/**
 * One input as the harness fills it: its type, its shape with every dynamic axis named (the batch axis, the swept
 * axis, or an axis bound by {@code -Dbench.dims}), and where its values come from.
 *
 * @param values the generator; null for a token role, whose values the token batch carries
 */
public record PlannedInput(String name, ElementType type, List<Dim> shape, InputRole role, ValueGenerator values) {
    public PlannedInput {
        shape = List.copyOf(shape);
    }

    /** How run.json names the values: the role's for a token input, else the generator's. */
    public String valuesLabel() {
        return values == null ? role.label() + " (from the token batch)" : values.label();
    }

    public String shapeLabel() {
        return shape.toString().replace(" ", "");
    }
}
