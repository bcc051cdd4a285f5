package io.inferbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Figures measured on some machine live in docs/findings.md, dated, where they can be measured again; Javadoc says what
 * the code does and its hazards. A source line that reports what the build machine measured fails here, and every
 * {@code docs/findings.md, "Section"} that a source cites names a section that exists. {@code Setting}'s rows are the
 * options' documentation itself (docs/options.md) and are not held to it.
 */
class FindingsInDocsTest {
    /** "build machine", also where a comment wraps it over two lines. */
    private static final Pattern BUILD_MACHINE = Pattern.compile("build(\\s*\\n\\s*(\\*|//))?\\s+machine");
    private static final Pattern CITED = Pattern.compile("docs/findings\\.md, \"([^\"]+)\"");

    @Test
    void noSourceReportsWhatTheBuildMachineMeasured() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path root : ArchitectureTest.MAIN) {
            for (Path file : ArchitectureTest.javaFiles(root)) {
                if (file.endsWith("Setting.java")) {
                    continue;
                }
                String text = Files.readString(file);
                Matcher m = BUILD_MACHINE.matcher(text);
                while (m.find()) {
                    found.add(file + ":" + (1 + text.substring(0, m.start()).chars().filter(c -> c == '\n').count()));
                }
            }
        }
        assertEquals(List.of(), found, "move the figure to docs/findings.md with its date, and cite the section");
    }

    @Test
    void everyCitedSectionExists() throws IOException {
        String findings = Files.readString(TestPaths.ROOT.resolve("docs/findings.md"));
        List<String> missing = new ArrayList<>();
        int cited = 0;
        for (Path root : ArchitectureTest.MAIN) {
            for (Path file : ArchitectureTest.javaFiles(root)) {
                // A citation may be wrapped over two comment lines: join them first.
                String code = Files.readString(file).replaceAll("\\n\\s*\\*\\s*", " ").replaceAll("\\n\\s*//\\s*", " ");
                Matcher m = CITED.matcher(code);
                while (m.find()) {
                    cited++;
                    if (!findings.contains("## " + m.group(1) + "\n")) {
                        missing.add(file.getFileName() + " cites \"" + m.group(1) + "\"");
                    }
                }
            }
        }
        assertTrue(cited >= 15, "the sources cite docs/findings.md: " + cited);
        assertEquals(List.of(), missing);
    }
}
