package io.inferbench.engine;

import io.inferbench.TestPaths;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a new engine must answer is what docs/architecture.md says: the abstract methods of the engine SPI's interfaces,
 * every other one with a default. A method made abstract (or a default dropped) without the table saying so fails.
 */
class EngineSpiTest {
    private static final List<Class<?>> SPI = List.of(EngineProvider.class, InferenceEngine.class, InferenceSession.class,
            InferenceSession.Runner.class, DecoderSession.class, RowBatch.class);
    private static final Pattern ROW = Pattern.compile("^\\| `([\\w.]+)` \\| ([^|]+) \\|");

    @Test
    void theMethodsANewEngineMustWriteAreTheDocumentedOnes() throws IOException {
        Map<String, Set<String>> required = new TreeMap<>();
        int all = 0;
        for (Class<?> type : SPI) {
            String name = type.getEnclosingClass() == null ? type.getSimpleName()
                    : type.getEnclosingClass().getSimpleName() + "." + type.getSimpleName();
            required.put(name, Arrays.stream(type.getDeclaredMethods()).filter(m -> Modifier.isAbstract(m.getModifiers()))
                    .map(Method::getName).collect(Collectors.toCollection(TreeSet::new)));
            all += (int) Arrays.stream(type.getDeclaredMethods()).filter(m -> !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic()).count();
        }
        assertEquals(documented(), required, "docs/architecture.md's table after <!-- engine-spi: required --> must list "
                + "exactly the abstract methods of the engine SPI: give the new one a default, or add it to the table");
        String page = Files.readString(TestPaths.ROOT.resolve("docs/architecture.md"));
        assertTrue(page.contains("(" + all + " in all)"), "the page counts every method of the SPI: " + all);
    }

    private static Map<String, Set<String>> documented() throws IOException {
        List<String> lines = Files.readAllLines(TestPaths.ROOT.resolve("docs/architecture.md"));
        int start = lines.indexOf("<!-- engine-spi: required -->");
        assertTrue(start >= 0, "docs/architecture.md has no table of the engine SPI");
        Map<String, Set<String>> rows = new TreeMap<>();
        for (String line : lines.subList(start + 3, lines.size())) {
            Matcher m = ROW.matcher(line);
            if (!m.find()) {
                break;
            }
            rows.put(m.group(1), Arrays.stream(m.group(2).split(",")).map(s -> s.trim().replace("`", ""))
                    .collect(Collectors.toCollection(TreeSet::new)));
        }
        return rows;
    }
}
