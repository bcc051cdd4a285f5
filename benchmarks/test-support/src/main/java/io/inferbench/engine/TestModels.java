package io.inferbench.engine;

import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import io.inferbench.model.OnnxGraphBuilder;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.inferbench.model.OnnxGraphBuilder.intAttribute;

/** Tiny ONNX graphs with the input layouts that users bring, good and bad. */
public final class TestModels {
    private TestModels() {
    }

    /** BERT-style inputs; outputs echo each input as float, so tests can see how the harness filled them. */
    public static Path bertStyle(Path dir) throws IOException {
        OnnxGraphBuilder g = new OnnxGraphBuilder("bert_style");
        for (String input : new String[] {"input_ids", "attention_mask", "token_type_ids"}) {
            g.input(input, DataType.INT64, "batch_size", "sequence_length");
            g.output(input + "_echo", DataType.FLOAT, "batch_size", "sequence_length");
            g.nodeWithOutput("Cast", new String[] {input}, input + "_echo", intAttribute("to", DataType.FLOAT.getNumber()));
        }
        return write(g, dir.resolve("bert-style.onnx"));
    }

    /** input_ids alone (int64), echoed as float: a model whose inputs differ from {@link #bertStyle}'s. */
    public static Path idsOnly(Path dir) throws IOException {
        OnnxGraphBuilder g = new OnnxGraphBuilder("ids_only");
        g.input("input_ids", DataType.INT64, "batch_size", "sequence_length");
        g.output("input_ids_echo", DataType.FLOAT, "batch_size", "sequence_length");
        g.nodeWithOutput("Cast", new String[] {"input_ids"}, "input_ids_echo", intAttribute("to", DataType.FLOAT.getNumber()));
        return write(g, dir.resolve("ids-only.onnx"));
    }

    /** A vision-style model: one float input called pixel_values. */
    public static Path pixelValues(Path dir) throws IOException {
        OnnxGraphBuilder g = new OnnxGraphBuilder("pixels");
        g.input("pixel_values", DataType.FLOAT, "batch", 3, 224, 224);
        g.output("out", DataType.FLOAT, "batch", 3, 224, 224);
        g.nodeWithOutput("Identity", new String[] {"pixel_values"}, "out");
        return write(g, dir.resolve("pixels.onnx"));
    }

    /** input_ids exported as int32, which the harness does not feed. */
    public static Path int32Ids(Path dir) throws IOException {
        OnnxGraphBuilder g = new OnnxGraphBuilder("int32_ids");
        g.input("input_ids", DataType.INT32, "batch", "seq");
        g.output("out", DataType.INT32, "batch", "seq");
        g.nodeWithOutput("Identity", new String[] {"input_ids"}, "out");
        return write(g, dir.resolve("int32-ids.onnx"));
    }

    /** input_ids with both axes fixed, as some exports are. */
    public static Path fixedShape(Path dir, int batch, int seq) throws IOException {
        OnnxGraphBuilder g = new OnnxGraphBuilder("fixed");
        g.input("input_ids", DataType.INT64, batch, seq);
        g.output("out", DataType.FLOAT, batch, seq);
        g.nodeWithOutput("Cast", new String[] {"input_ids"}, "out", intAttribute("to", DataType.FLOAT.getNumber()));
        return write(g, dir.resolve("fixed.onnx"));
    }

    /** Output with a dynamic axis named after neither input axis, so outputs cannot be preallocated. */
    public static Path unresolvableOutput(Path dir) throws IOException {
        OnnxGraphBuilder g = new OnnxGraphBuilder("unresolvable");
        g.input("input_ids", DataType.INT64, "batch", "seq");
        g.output("flat", DataType.FLOAT, "n");
        String flat = g.node("Reshape", "input_ids", g.int64Initializer("minus_one", -1));
        g.nodeWithOutput("Cast", new String[] {flat}, "flat", intAttribute("to", DataType.FLOAT.getNumber()));
        return write(g, dir.resolve("unresolvable.onnx"));
    }

    /**
     * Inputs of every type the harness fills besides int64, each cast to float and echoed: {@code half float16 [batch, 4]},
     * {@code count int32 [batch, 4]}, {@code flag bool [batch, 4]}.
     */
    public static Path otherTypes(Path dir) throws IOException {
        OnnxGraphBuilder g = new OnnxGraphBuilder("other_types");
        String[][] inputs = {{"half", "FLOAT16"}, {"count", "INT32"}, {"flag", "BOOL"}};
        for (String[] input : inputs) {
            g.input(input[0], DataType.valueOf(input[1]), "batch", 4);
        }
        for (String[] input : inputs) {
            g.output(input[0] + "_echo", DataType.FLOAT, "batch", 4);
            g.nodeWithOutput("Cast", new String[] {input[0]}, input[0] + "_echo", intAttribute("to", DataType.FLOAT.getNumber()));
        }
        return write(g, dir.resolve("other-types.onnx"));
    }

    private static Path write(OnnxGraphBuilder g, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            g.build("test", "test model").writeTo(out);
        }
        return file;
    }
}
