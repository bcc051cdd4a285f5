package io.inferbench.model;

/**
 * What kind of model a {@link ModelSource} is, as an engine decides whether it loads it: the engines declare the formats
 * they load ({@code io.inferbench.engine.Capabilities}), and nothing keys a format rule on an engine's name.
 */
public enum ModelFormat {
    /** A float32 built-in encoder ({@code tiny}, {@code base}): an ONNX graph, or a block built from the same weights. */
    BUILTIN_FLOAT32("the float32 built-in encoders"),
    /** An int8 or float16 built-in encoder: an ONNX graph only, written from the float32 weights. */
    BUILTIN_VARIANT("the int8 and float16 built-in encoders"),
    /** A built-in decoder with a key/value cache ({@code tiny-decoder}, {@code base-decoder}). */
    BUILTIN_DECODER("the built-in decoders"),
    /** A user's {@code .onnx} file. */
    ONNX_FILE("ONNX files"),
    /** An optimum-style export folder of a decoder ({@code decoder_model_merged.onnx}, or the split pair). */
    EXPORT_FOLDER("export folders"),
    /** A user's TorchScript module ({@code .pt}). */
    TORCHSCRIPT_FILE("TorchScript files"),
    /** No model ({@code -Dbench.model=none}): a target that loads what it needs itself. */
    NONE("no model");

    private final String label;

    ModelFormat(String label) {
        this.label = label;
    }

    /** In words, for a refusal: {@code "ONNX files"}. */
    public String label() {
        return label;
    }
}
