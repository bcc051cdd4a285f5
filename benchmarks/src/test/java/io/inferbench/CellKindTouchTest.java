package io.inferbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a kind of cell costs the runner, counted on the one there is beside the sweep's: every file of the core that
 * uses generation's own types (its package {@code generate/}, and its classes named {@code Generation*} elsewhere) or
 * its run.json section ({@code .generation()}), other than those files themselves and the features built on generation
 * (generation under load: {@code serve/generation/}, {@code GenerationLoad*}, {@code GenerationServing}). That set must be
 * docs/architecture.md's table, so the claim of what a new kind touches stays the count.
 */
class CellKindTouchTest {
    private static final Path CORE = TestPaths.ROOT.resolve("benchmarks/core/src/main/java/io/inferbench");

    private static boolean own(String file) {
        String name = Path.of(file).getFileName().toString();
        return file.startsWith("generate/") || name.startsWith("Generation") && !built(file);
    }

    private static boolean built(String file) {
        String name = Path.of(file).getFileName().toString();
        return file.startsWith("serve/generation/") || name.startsWith("GenerationLoad") || name.equals("GenerationServing.java");
    }

    @Test
    void aKindTouchesOnlyTheFilesTheArchitectureNames() throws IOException {
        List<String> files;
        try (Stream<Path> walk = Files.walk(CORE)) {
            files = walk.filter(f -> f.toString().endsWith(".java")).map(f -> CORE.relativize(f).toString()).sorted().toList();
        }
        List<String> ownFiles = files.stream().filter(CellKindTouchTest::own).toList();
        assertTrue(ownFiles.contains("generate/GenerationKind.java") && ownFiles.contains("results/GenerationResult.java"), ownFiles.toString());
        Set<String> touched = new TreeSet<>();
        for (String file : files) {
            if (own(file) || built(file)) {
                continue;
            }
            String pkg = file.contains("/") ? file.substring(0, file.lastIndexOf('/')) : "";
            List<String> code = Files.readAllLines(CORE.resolve(file)).stream()
                    .filter(l -> !l.strip().startsWith("*") && !l.strip().startsWith("/*") && !l.strip().startsWith("//"))
                    .map(l -> l.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")).toList();
            for (String ownFile : ownFiles) {
                String type = Path.of(ownFile).getFileName().toString().replace(".java", "");
                String ownPkg = ownFile.substring(0, ownFile.lastIndexOf('/'));
                String imported = "import io.inferbench." + ownPkg.replace('/', '.') + "." + type + ";";
                Pattern used = Pattern.compile("\\b" + type + "\\b");
                if (code.stream().anyMatch(l -> l.strip().equals(imported)
                        || ownPkg.equals(pkg) && !l.startsWith("import") && used.matcher(l).find())) {
                    touched.add(file);
                }
            }
            if (code.stream().anyMatch(l -> l.contains(".generation()"))) {
                touched.add(file);
            }
        }
        assertEquals(documented(), touched, "a kind of cell must touch only the runner's files that docs/architecture.md "
                + "names (its table after <!-- cell-kind-touches -->): fold the new use into one of them, or name the file there");
    }

    /** The files of docs/architecture.md's table of what a kind touches. */
    private static Set<String> documented() throws IOException {
        return TouchPointsTest.table("<!-- cell-kind-touches: generation -->");
    }
}
