package io.inferbench.model;

import java.nio.file.Path;

/**
 * A model ready to load: where its bytes are and what they hash to.
 *
 * @param name       the name the user gave ({@code tiny}, or the file path)
 * @param path       the ONNX file (for built-ins, the generated file in the cache)
 * @param sha256     hex SHA-256 of the file's bytes: the identity that comparisons check
 * @param sizeBytes  file size
 * @param description how the model was made, e.g. "built-in encoder tiny (hidden 128, ...), seed 42"
 */
public record ResolvedModel(String name, Path path, String sha256, long sizeBytes, String description) {
}
