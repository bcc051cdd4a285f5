package io.inferbench.inputs;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the user said about a model's inputs: which axis the sweep's lengths bind ({@code -Dbench.seqAxis}), the size
 * of every other dynamic axis ({@code -Dbench.dims}), and an input spec file ({@code -Dbench.inputs}).
 *
 * @param seqAxis  the swept axis's name; null for the default, the axis the token inputs share
 * @param dims     a size for each other dynamic axis, by name
 * @param specFile the input spec, or null for the model's own metadata
 */
public record InputOptions(String seqAxis, Map<String, Long> dims, Path specFile) {
    public static final InputOptions NONE = new InputOptions(null, Map.of(), null);

    public InputOptions {
        dims = dims == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(dims));
    }
}
