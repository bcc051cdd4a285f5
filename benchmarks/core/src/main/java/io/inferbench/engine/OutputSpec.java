package io.inferbench.engine;

import java.util.List;

/**
 * One model output as the engine declares it: name, element type and dimensions, a symbolic or unknown dimension as
 * its name or {@code ?}. A TorchScript module declares none of this; its outputs are then {@code output 0}, ... with
 * {@link #declared()} false.
 *
 * @param dims the declared dimensions, e.g. {@code [batch, 2]}; empty when not declared
 */
public record OutputSpec(String name, String type, List<String> dims, boolean declared) {
    public OutputSpec {
        dims = List.copyOf(dims);
    }

    /** Name, type and dims, e.g. {@code logits float [batch, 2]}. */
    @Override
    public String toString() {
        return name + " " + type + " " + (declared ? dims.toString() : "[not declared]");
    }
}
