package io.inferbench.model;

import io.inferbench.BenchmarkException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What {@code -Dbench.model} names: a built-in preset, or a model file the user brings. */
public sealed interface ModelSource {

    /** The name as the user gave it; used as the JMH {@code model} parameter and in results. */
    String name();

    /** A built-in encoder: a preset at a precision, e.g. {@code tiny}, {@code base-int8}, {@code tiny-fp16}. */
    record Builtin(EncoderPreset preset, Precision precision) implements ModelSource {
        public Builtin(EncoderPreset preset) {
            this(preset, Precision.FP32);
        }

        @Override
        public String name() {
            return preset.id() + precision.suffix();
        }

        /** Every built-in: each preset at each precision. */
        public static List<Builtin> all() {
            List<Builtin> all = new ArrayList<>();
            for (Precision precision : Precision.values()) {
                for (EncoderPreset preset : EncoderPreset.values()) {
                    all.add(new Builtin(preset, precision));
                }
            }
            return List.copyOf(all);
        }

        /** Every built-in's name. */
        public static List<String> names() {
            return all().stream().map(Builtin::name).toList();
        }

        /** The built-in called {@code name}, if there is one. */
        public static Optional<Builtin> named(String name) {
            return all().stream().filter(b -> b.name().equals(name)).findFirst();
        }
    }

    /**
     * A built-in decoder with a key/value cache ({@code tiny-decoder}, {@code base-decoder}): measured by generation
     * ({@code -Dbench.generate}), which runs its prefill and decode steps; an engine loads its generated ONNX file or builds
     * it from the same seeded weights.
     */
    record BuiltinDecoder(DecoderPreset preset) implements ModelSource {
        @Override
        public String name() {
            return preset.id();
        }
    }

    /**
     * The built-in encoder-decoder, {@code tiny-seq2seq}: a T5-like text model of vocab 1000, hidden 64, 2 layers each
     * side, 4 heads, written as optimum's folder ({@link OnnxSeq2SeqExporter}: {@code encoder_model.onnx},
     * {@code decoder_model.onnx}, {@code decoder_with_past_model.onnx}, {@code config.json}) into the cache, from the
     * run's seed, and checked token by token against its double-precision reference ({@link Seq2SeqReference}).
     */
    record BuiltinSeq2Seq() implements ModelSource {
        public static final String NAME = "tiny-seq2seq";
        public static final DecoderConfig CONFIG = new DecoderConfig(1000, 64, 2, 4, 256, 512);

        @Override
        public String name() {
            return NAME;
        }
    }

    record OnnxFile(Path path) implements ModelSource {
        @Override
        public String name() {
            return path.toString();
        }
    }

    /**
     * An optimum-style export folder ({@link ExportFolder}): a decoder for generation, as one merged graph or a prefill and
     * with-past pair. Read when parsed, so a folder without a decoder fails in set-up.
     */
    record OnnxFolder(ExportFolder export) implements ModelSource {
        @Override
        public String name() {
            return export.dir().toString();
        }
    }

    /**
     * No model: {@code -Dbench.model=none}, the default when the run times a user's target ({@code -Dbench.target}), which
     * loads whatever it needs itself. No engine opens it; its cells are named {@code none}.
     */
    record None() implements ModelSource {
        public static final String NAME = "none";

        @Override
        public String name() {
            return NAME;
        }
    }

    /** A TorchScript module ({@code .pt}), for an engine that loads TorchScript. */
    record TorchScriptFile(Path path) implements ModelSource {
        @Override
        public String name() {
            return path.toString();
        }
    }

    /** What kind of model this is, for the engines' {@code Capabilities}. */
    default ModelFormat format() {
        if (this instanceof Builtin builtin) {
            return builtin.precision() == Precision.FP32 ? ModelFormat.BUILTIN_FLOAT32 : ModelFormat.BUILTIN_VARIANT;
        }
        if (this instanceof BuiltinDecoder) {
            return ModelFormat.BUILTIN_DECODER;
        }
        if (this instanceof None) {
            return ModelFormat.NONE;
        }
        if (this instanceof OnnxFolder || this instanceof BuiltinSeq2Seq) {
            return ModelFormat.EXPORT_FOLDER;
        }
        return this instanceof OnnxFile ? ModelFormat.ONNX_FILE : ModelFormat.TORCHSCRIPT_FILE;
    }

    /** The user's file (an export folder's folder), or null for a built-in. */
    default Path file() {
        if (this instanceof OnnxFile f) {
            return f.path();
        }
        if (this instanceof OnnxFolder folder) {
            return folder.export().dir();
        }
        return this instanceof TorchScriptFile t ? t.path() : null;
    }

    /**
     * Parses a built-in's name ({@code tiny}, {@code base}, either with {@code -int8} or {@code -fp16}),
     * {@code /path/model.onnx|/path/model.pt}, or an export folder ({@link ExportFolder#read}). A file path is checked here (exists, regular, readable) so
     * that a typo fails in set-up, not in a forked JVM; whether the bytes are a valid model is the backend's check.
     */
    static ModelSource parse(String value) {
        if (value == null || value.isBlank()) {
            throw new BenchmarkException("No model given: set -Dbench.model to tiny, base, or a path to an .onnx file");
        }
        String trimmed = value.trim();
        if (trimmed.equals(None.NAME)) {
            return new None();
        }
        Optional<Builtin> builtin = Builtin.named(trimmed);
        if (builtin.isPresent()) {
            return builtin.get();
        }
        if (trimmed.equals(BuiltinSeq2Seq.NAME)) {
            return new BuiltinSeq2Seq();
        }
        Optional<DecoderPreset> decoder = DecoderPreset.named(trimmed);
        if (decoder.isPresent()) {
            return new BuiltinDecoder(decoder.get());
        }
        Path path = Path.of(trimmed).toAbsolutePath().normalize();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (!Files.exists(path)) {
            throw new BenchmarkException("Model file not found: " + path + " (from -Dbench.model=" + trimmed + "). "
                    + "Give the path to an .onnx or TorchScript .pt file, or one of the built-in models: "
                    + String.join(", ", Builtin.names()) + " (decoders, with -Dbench.generate: tiny-decoder, base-decoder, tiny-seq2seq)");
        }
        if (Files.isDirectory(path)) {
            return new OnnxFolder(ExportFolder.read(path));
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new BenchmarkException("Model path " + path + " is not a readable file. "
                    + "Give the path to an .onnx or TorchScript .pt file, or one of the built-in models: "
                    + String.join(", ", Builtin.names()));
        }
        if (lower.endsWith(".pt") || lower.endsWith(".pth") || lower.endsWith(".torchscript")) {
            return new TorchScriptFile(path);
        }
        return new OnnxFile(path);
    }
}
