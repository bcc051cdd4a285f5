package io.inferbench.model;

import io.inferbench.BenchmarkException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** What {@code -Dbench.model} names: a built-in preset, or a model file the user brings. */
public sealed interface ModelSource {

    /** The name as the user gave it; used as the JMH {@code model} parameter and in results. */
    String name();

    record Builtin(EncoderPreset preset) implements ModelSource {
        @Override
        public String name() {
            return preset.id();
        }
    }

    record OnnxFile(Path path) implements ModelSource {
        @Override
        public String name() {
            return path.toString();
        }
    }

    /** A TorchScript module ({@code .pt}), for the DJL PyTorch backend. */
    record TorchScriptFile(Path path) implements ModelSource {
        @Override
        public String name() {
            return path.toString();
        }
    }

    /** The user's file, or null for a built-in. */
    default Path file() {
        if (this instanceof OnnxFile f) {
            return f.path();
        }
        return this instanceof TorchScriptFile t ? t.path() : null;
    }

    /**
     * Parses {@code tiny|base|/path/model.onnx|/path/model.pt}. A file path is checked here (exists, regular, readable) so
     * that a typo fails in set-up, not in a forked JVM; whether the bytes are a valid model is the backend's check.
     */
    static ModelSource parse(String value) {
        if (value == null || value.isBlank()) {
            throw new BenchmarkException("No model given: set -Dbench.model to tiny, base, or a path to an .onnx file");
        }
        String trimmed = value.trim();
        if (EncoderPreset.isPresetName(trimmed)) {
            return new Builtin(EncoderPreset.fromId(trimmed));
        }
        Path path = Path.of(trimmed).toAbsolutePath().normalize();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (!Files.exists(path)) {
            throw new BenchmarkException("Model file not found: " + path + " (from -Dbench.model=" + trimmed + "). "
                    + "Give the path to an .onnx or TorchScript .pt file, or one of the built-in models: tiny, base");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new BenchmarkException("Model path " + path + " is not a readable file. "
                    + "Give the path to an .onnx or TorchScript .pt file, or one of the built-in models: tiny, base");
        }
        if (lower.endsWith(".pt") || lower.endsWith(".pth") || lower.endsWith(".torchscript")) {
            return new TorchScriptFile(path);
        }
        return new OnnxFile(path);
    }
}
