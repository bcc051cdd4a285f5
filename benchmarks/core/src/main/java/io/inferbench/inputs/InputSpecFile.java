package io.inferbench.inputs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.inferbench.BenchmarkException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * An input spec ({@code -Dbench.inputs=FILE.json}): what a model's metadata cannot say (a TorchScript module's shapes
 * and types) and the values chosen for each input.
 *
 * <pre>{"inputs": [{"name": "pixel_values", "type": "float32", "shape": ["batch", 3, 64, 64], "values": "normal"}]}</pre>
 *
 * <p>{@code shape} holds a number for a fixed axis and a name for a dynamic one; {@code values} is optional and one of
 * {@code normal}, {@code uniform}, {@code zeros}, {@code ones}, {@code ids}, {@code {"const": X}},
 * {@code {"range": [lo, hi]}} or {@code {"npy": "path.npy"}} (relative to the spec's folder). The list's order is a
 * TorchScript module's argument order.
 *
 * @param sha256 of the file's bytes, recorded so that two runs with different specs are not compared
 */
public record InputSpecFile(Path file, String sha256, List<Entry> inputs) {

    /** One input of the spec. @param values null when the spec leaves the harness's default */
    public record Entry(String name, ElementType type, List<Dim> shape, ValueGenerator values) {
    }

    private static final Set<String> ENTRY_KEYS = Set.of("name", "type", "shape", "values");

    public static InputSpecFile read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BenchmarkException("The input spec " + file + " cannot be read (" + e.getMessage() + "). Give "
                    + "-Dbench.inputs the path to a JSON file: {\"inputs\": [{\"name\": ..., \"type\": ..., \"shape\": [...]}]}", e);
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(bytes);
        } catch (IOException e) {
            throw new BenchmarkException("The input spec " + file + " is not valid JSON: " + e.getMessage(), e);
        }
        String where = "The input spec " + file;
        if (root == null || !root.isObject() || !root.path("inputs").isArray() || root.size() != 1) {
            throw new BenchmarkException(where + " must be one object with one key, \"inputs\", a list of "
                    + "{\"name\", \"type\", \"shape\"[, \"values\"]}");
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode node : root.get("inputs")) {
            entries.add(entry(node, file, where));
            if (!names.add(entries.get(entries.size() - 1).name())) {
                throw new BenchmarkException(where + " lists the input '" + entries.get(entries.size() - 1).name()
                        + "' twice; list each input once");
            }
        }
        if (entries.isEmpty()) {
            throw new BenchmarkException(where + " lists no inputs; list every input of the model");
        }
        return new InputSpecFile(file, NpyArray.sha256(bytes), List.copyOf(entries));
    }

    private static Entry entry(JsonNode node, Path file, String where) {
        if (!node.isObject() || !node.path("name").isTextual()) {
            throw new BenchmarkException(where + " has an input without a \"name\": " + node);
        }
        String name = node.get("name").asText();
        String at = where + ", input '" + name + "',";
        for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!ENTRY_KEYS.contains(key)) {
                throw new BenchmarkException(at + " has the unknown key \"" + key + "\"; an input has " + ENTRY_KEYS);
            }
        }
        if (!node.path("type").isTextual()) {
            throw new BenchmarkException(at + " has no \"type\"; give one of float32, float16, int64, int32, bool");
        }
        ElementType type = ElementType.parse(node.get("type").asText(), at.substring(0, at.length() - 1));
        if (!node.path("shape").isArray()) {
            throw new BenchmarkException(at + " has no \"shape\"; give a list of numbers (fixed axes) and names "
                    + "(dynamic axes), e.g. [\"batch\", 3, 64, 64]");
        }
        List<Dim> shape = new ArrayList<>();
        for (JsonNode d : node.get("shape")) {
            if (d.isIntegralNumber() && d.asLong() > 0) {
                shape.add(Dim.fixed(d.asLong()));
            } else if (d.isTextual() && !d.asText().isBlank()) {
                shape.add(Dim.named(d.asText()));
            } else {
                throw new BenchmarkException(at + " has the axis " + d + " in its shape; an axis is a positive number "
                        + "or a name");
            }
        }
        ValueGenerator values = node.has("values") ? values(node.get("values"), file, name, at) : null;
        return new Entry(name, type, shape, values);
    }

    private static ValueGenerator values(JsonNode v, Path file, String name, String at) {
        String choices = "normal, uniform, zeros, ones, ids, {\"const\": X}, {\"range\": [lo, hi]} or {\"npy\": \"path.npy\"}";
        if (v.isTextual()) {
            return switch (v.asText()) {
                case "normal" -> new ValueGenerator.Normal();
                case "uniform" -> new ValueGenerator.Uniform();
                case "zeros" -> new ValueGenerator.Zeros();
                case "ones" -> new ValueGenerator.Ones();
                case "ids" -> new ValueGenerator.Ids();
                default -> throw new BenchmarkException(at + " has values \"" + v.asText() + "\"; use " + choices);
            };
        }
        if (v.isObject() && v.size() == 1) {
            if (v.path("const").isNumber()) {
                return new ValueGenerator.Const(v.get("const").asDouble());
            }
            JsonNode range = v.path("range");
            if (range.isArray() && range.size() == 2 && range.get(0).isNumber() && range.get(1).isNumber()) {
                return new ValueGenerator.Range(range.get(0).asDouble(), range.get(1).asDouble());
            }
            if (v.path("npy").isTextual()) {
                Path npy = file.toAbsolutePath().getParent().resolve(v.get("npy").asText()).normalize();
                return new ValueGenerator.Npy(NpyArray.read(npy, name));
            }
        }
        throw new BenchmarkException(at + " has values " + v + "; use " + choices);
    }
}
