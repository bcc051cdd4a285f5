package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/run-json.md's "Every field" index is exactly the fields a run can write: every path Jackson writes from
 * {@link RunResult} and the records under it (each record component under its {@code @JsonProperty} name; {@code []}
 * for a list's elements, {@code {}} for a map's values). A field added to a record and not to the page, or left on the
 * page after it was removed, fails here; the failure prints the index to paste.
 */
class RunJsonDocumentationTest {
    private static final Path DOC = Path.of("..", "docs", "run-json.md");
    private static final Pattern INDEX = Pattern.compile("<!-- field index: generated, checked by RunJsonDocumentationTest -->\\n"
            + "```text\\n(.*?)```", Pattern.DOTALL);

    /** Every field path, in the records' order. */
    static List<String> paths() {
        List<String> paths = new ArrayList<>();
        collect(RunResult.class, "", paths, new ArrayList<>());
        return paths;
    }

    private static void collect(Type type, String prefix, List<String> paths, List<Class<?>> chain) {
        if (type instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            if (List.class.isAssignableFrom(raw)) {
                collect(p.getActualTypeArguments()[0], prefix + "[]", paths, chain);
            } else if (Map.class.isAssignableFrom(raw)) {
                collect(p.getActualTypeArguments()[1], prefix + "{}", paths, chain);
            }
            return;
        }
        if (!(type instanceof Class<?> c)) {
            return;
        }
        if (c.isArray()) {
            collect(c.getComponentType(), prefix + "[]", paths, chain);
            return;
        }
        if (!c.isRecord() || chain.contains(c)) {
            return;
        }
        chain.add(c);
        for (RecordComponent component : c.getRecordComponents()) {
            if (component.getAccessor().isAnnotationPresent(JsonIgnore.class)) {
                continue;
            }
            if (component.getAccessor().isAnnotationPresent(com.fasterxml.jackson.annotation.JsonUnwrapped.class)) {
                collect(component.getGenericType(), prefix, paths, chain); // a group whose fields are written in its place
                continue;
            }
            JsonProperty renamed = component.getAccessor().getAnnotation(JsonProperty.class);
            String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
            String path = prefix.isEmpty() ? name : prefix + "." + name;
            paths.add(path);
            collect(component.getGenericType(), path, paths, chain);
        }
        java.util.Set<String> accessors = new java.util.HashSet<>();
        for (RecordComponent component : c.getRecordComponents()) {
            accessors.add(component.getName());
        }
        // Derived fields: methods Jackson writes because they carry @JsonProperty (LoadPointResult.errorRate, ...), in the
        // record's @JsonPropertyOrder, else by name: the order reflection lists methods in differs from JVM to JVM.
        List<String> order = c.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonPropertyOrder.class)
                ? List.of(c.getAnnotation(com.fasterxml.jackson.annotation.JsonPropertyOrder.class).value()) : List.of();
        List<java.lang.reflect.Method> methods = new ArrayList<>(List.of(c.getDeclaredMethods()));
        methods.sort(java.util.Comparator.comparingInt((java.lang.reflect.Method method) -> order.contains(method.getName())
                ? order.indexOf(method.getName()) : Integer.MAX_VALUE).thenComparing(java.lang.reflect.Method::getName));
        for (java.lang.reflect.Method method : methods) {
            JsonProperty derived = method.getAnnotation(JsonProperty.class);
            if (derived != null && method.getParameterCount() == 0 && !accessors.contains(method.getName())) {
                String name = derived.value().isEmpty() ? method.getName() : derived.value();
                String path = prefix.isEmpty() ? name : prefix + "." + name;
                paths.add(path);
                collect(method.getGenericReturnType(), path, paths, chain);
            }
        }
        chain.remove(chain.size() - 1);
    }

    @Test
    void theFieldIndexIsExactlyWhatARunCanWrite() throws IOException {
        Matcher m = INDEX.matcher(Files.readString(DOC));
        String expected = String.join("\n", paths()) + "\n";
        assertTrue(m.find(), "docs/run-json.md has no field index; add this under '## Every field':\n"
                + "<!-- field index: generated, checked by RunJsonDocumentationTest -->\n```text\n" + expected + "```");
        assertEquals(expected, m.group(1), "docs/run-json.md's field index must be exactly the fields a run can write "
                + "(paste the expected side, and describe what is new in the sections above)");
    }
}
