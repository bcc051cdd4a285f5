package io.inferbench.ci;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Reading what the commands wrote: JSON trees, text files, and lists out of them. */
final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static JsonNode read(String path) {
        try {
            return MAPPER.readTree(Path.of(path).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** The run {@code results/latest} holds. */
    static JsonNode latestRun() {
        return read("results/latest/run.json");
    }

    static String text(String path) {
        try {
            return Files.readString(Path.of(path), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    static boolean nonEmptyFile(String path) {
        try {
            return Files.size(Path.of(path)) > 0;
        } catch (IOException e) {
            return false;
        }
    }

    static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    static <T> List<T> map(JsonNode array, Function<JsonNode, T> f) {
        List<T> out = new ArrayList<>();
        array.forEach(n -> out.add(f.apply(n)));
        return out;
    }

    static List<String> texts(JsonNode array, String field) {
        return map(array, n -> n.path(field).asText(null));
    }

    /** Absent or null, as Python's {@code d.get(k) is None}. */
    static boolean absent(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull();
    }

    /** Present and not empty, zero or false, as a Python value's truth. */
    static boolean given(JsonNode node) {
        if (absent(node)) {
            return false;
        }
        if (node.isNumber()) {
            return node.asDouble() != 0;
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.isTextual() ? !node.asText().isEmpty() : node.size() > 0;
    }
}
