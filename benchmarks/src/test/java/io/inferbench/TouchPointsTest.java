package io.inferbench;

import io.inferbench.cli.PropertyNames;
import io.inferbench.engine.EngineSetting;
import io.inferbench.option.Option;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What docs/architecture.md says a change touches, counted in the code: a new field of a cell, a new option, a new
 * probe. Each check finds the places by reading the sources, not by a list kept beside them, so a new place fails here
 * until the page names it (or the change folds into a place it names).
 */
class TouchPointsTest {
    private static final Path CORE = TestPaths.ROOT.resolve("benchmarks/core/src/main/java/io/inferbench");
    private static final Pattern ROW = Pattern.compile("^\\| `([\\w/]+\\.java)` \\|");
    private static final Pattern BUILDS_A_CELL = Pattern.compile("new CellResult\\s*[(.]");
    private static final Pattern OPTION_ENUM = Pattern.compile("\\benum\\s+(\\w+)\\s+implements\\s+Option\\.Defined\\b");
    private static final Pattern PROBE = Pattern.compile("\\b(?:class|record)\\s+(\\w+)\\b[^{]*\\bimplements\\s+[^{]*\\bProbe<");

    /** A new field of a cell touches its group in CellResult and the files that build a cell: the page's table. */
    @Test
    void aNewCellFieldTouchesOnlyTheFilesThatBuildACell() throws IOException {
        Set<String> building = new TreeSet<>();
        for (String file : coreFiles()) {
            if (!file.equals("results/CellResult.java") && BUILDS_A_CELL.matcher(code(CORE.resolve(file))).find()) {
                building.add(file);
            }
        }
        assertTrue(building.contains("runner/CellAggregator.java"), "the sweep builds its cells: " + building);
        assertEquals(table("<!-- touch-points: cell-field -->"), building, "the files that build a CellResult or its "
                + "groups must be docs/architecture.md's table after <!-- touch-points: cell-field -->: build the cell in "
                + "one of them, or name the file there");
    }

    /** A new capability's options are its enum and one line in PropertyNames.all(), whose names every check knows. */
    @Test
    void everyEnumOfOptionsIsInPropertyNames() throws IOException {
        Set<String> declared = new TreeSet<>();
        for (String file : coreFiles()) {
            Matcher m = OPTION_ENUM.matcher(code(CORE.resolve(file)));
            while (m.find()) {
                declared.add(m.group(1));
            }
        }
        assertTrue(declared.contains("Setting") && declared.contains("ServeSetting"), declared.toString());
        Set<String> listed = PropertyNames.all().stream().filter(o -> !(o instanceof EngineSetting))
                .map(TouchPointsTest::enumName).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(declared, listed, "every enum of options (implements Option.Defined) is one line in "
                + "PropertyNames.all(), so the unknown-name check, its \"did you mean\" and docs/options.md know its names");
    }

    /** A new probe is its class and one line in the service file; the GPU sampler alone is added by the fork on CUDA. */
    @Test
    void everyProbeIsInTheServiceFile() throws IOException {
        Set<String> implementing = new TreeSet<>();
        for (String file : coreFiles()) {
            String pkg = "io.inferbench." + (file.contains("/") ? file.substring(0, file.lastIndexOf('/')).replace('/', '.') : "");
            String outer = Path.of(file).getFileName().toString().replace(".java", "");
            Matcher m = PROBE.matcher(code(CORE.resolve(file)));
            while (m.find()) {
                implementing.add(pkg + "." + (m.group(1).equals(outer) ? outer : outer + "$" + m.group(1)));
            }
        }
        Set<String> listed = Files.readAllLines(TestPaths.ROOT.resolve(
                        "benchmarks/core/src/main/resources/META-INF/services/io.inferbench.probe.Probe")).stream()
                .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .collect(Collectors.toCollection(TreeSet::new));
        listed.add("io.inferbench.probe.GpuSampler");
        assertTrue(implementing.contains("io.inferbench.probe.PageFaults"), implementing.toString());
        assertEquals(listed, implementing, "every class implementing Probe is one line in "
                + "META-INF/services/io.inferbench.probe.Probe (docs/architecture.md, \"A new probe\")");
    }

    private static String enumName(Option option) {
        Class<?> type = option.getClass();
        return (type.isEnum() ? type : type.getEnclosingClass()).getSimpleName();
    }

    private static List<String> coreFiles() throws IOException {
        try (Stream<Path> walk = Files.walk(CORE)) {
            return walk.filter(f -> f.toString().endsWith(".java")).map(f -> CORE.relativize(f).toString()).sorted().toList();
        }
    }

    /** The file's code: comments and string literals blanked, so a name in either is no use. */
    private static String code(Path file) throws IOException {
        return Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "")
                .replaceAll("\"(\\\\.|[^\"\\\\\n])*\"", "\"\"");
    }

    /** The files of the table after {@code marker} in docs/architecture.md (its rows name a file first, in backticks). */
    static Set<String> table(String marker) throws IOException {
        List<String> lines = Files.readAllLines(TestPaths.ROOT.resolve("docs/architecture.md"));
        int start = lines.indexOf(marker);
        assertTrue(start >= 0, "docs/architecture.md has no " + marker);
        Set<String> files = new TreeSet<>();
        for (String line : lines.subList(start + 3, lines.size())) {
            Matcher m = ROW.matcher(line);
            if (!m.find()) {
                break;
            }
            files.add(m.group(1));
        }
        return files;
    }
}
