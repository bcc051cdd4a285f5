package io.inferbench.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One source for every default: each capability's options ({@link Settings#all()}). docs/options.md's table says the same, README.md's short table is a
 * selection of its rows in the same order, and no pom repeats any of it.
 */
class SettingDocumentationTest {
    private static final Path ROOT = Path.of("..");

    private static List<String> optionsTable(Path file) throws IOException {
        List<String> lines = Files.readString(file, StandardCharsets.UTF_8).lines().toList();
        int header = lines.indexOf("| property | default | meaning |");
        assertTrue(header >= 0, file + " has no options table");
        return lines.subList(header + 2, lines.size()).stream().takeWhile(l -> l.startsWith("|")).toList();
    }

    /** Every capability's options, the engines' last ({@link Settings#all()}). */
    private static List<String> allRows() {
        return PropertyNames.all().stream().map(io.inferbench.option.Option::markdownRow).toList();
    }

    @Test
    void theOptionsPageTableIsExactlyTheSettings() throws IOException {
        List<String> expected = allRows();
        assertEquals(String.join("\n", expected), String.join("\n", optionsTable(ROOT.resolve("docs/options.md"))),
                "docs/options.md's options table must be exactly these rows, in this order (copy them from the expected side)");
    }

    @Test
    void readmesShortTableIsASelectionOfTheSettingsInTheirOrder() throws IOException {
        List<String> all = allRows();
        List<String> shown = optionsTable(ROOT.resolve("README.md"));
        assertTrue(shown.size() >= 5, "README.md shows the most used options: " + shown);
        int last = -1;
        for (String row : shown) {
            int at = all.indexOf(row);
            assertTrue(at > last, "README.md's row is not a Setting row, or out of order (copy it from docs/options.md): " + row);
            last = at;
        }
    }

    @Test
    void noPomHoldsADefaultOrPassesAPropertyOnItsOwn() throws IOException {
        Pattern property = Pattern.compile("<((?:bench|compare)\\.[\\w.]+)>|-D((?:bench|compare)\\.[\\w.]+)=");
        for (Path pom : List.of(ROOT.resolve("pom.xml"), ROOT.resolve("benchmarks").resolve("pom.xml"))) {
            Matcher m = property.matcher(Files.readString(pom, StandardCharsets.UTF_8));
            List<String> found = m.results().map(java.util.regex.MatchResult::group).collect(Collectors.toList());
            assertEquals(List.of(), found, pom + " must not set inferbench properties: the launcher passes on the user's own");
        }
    }

    @Test
    void everySettingHasAMeaningAndAUniqueName() {
        List<String> names = PropertyNames.all().stream().map(io.inferbench.option.Option::property).toList();
        assertEquals(names.size(), names.stream().distinct().count(), "no two capabilities' options share a name: " + names);
        for (io.inferbench.option.Option s : PropertyNames.all()) {
            assertTrue(!s.meaning().isBlank() && !s.meaning().contains("|"), s.property());
        }
    }

    /** A capability's options enum that {@link Settings#all()} leaves out would be unknown to the check and the docs. */
    @Test
    void everyOptionsEnumOfTheCoreIsListed() throws Exception {
        Path core = Path.of("core", "src", "main", "java"); // tests run in benchmarks/, where the modules live
        Pattern declared = Pattern.compile("public enum (\\w+) implements Option(\\.Defined)?\\b");
        List<String> enums = new java.util.ArrayList<>();
        try (java.util.stream.Stream<Path> files = Files.walk(core)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = declared.matcher(Files.readString(file, StandardCharsets.UTF_8));
                if (m.find()) {
                    String type = core.relativize(file).toString().replace('/', '.').replaceAll("\\.java$", "");
                    enums.add(type);
                    for (Object constant : Class.forName(type).getEnumConstants()) {
                        assertTrue(PropertyNames.all().contains(constant), type + "." + constant + " is not in PropertyNames.all()");
                    }
                }
            }
        }
        assertEquals(8, enums.size(), "the run's, serving's, a workload's, precision's, the regime's, compare's, the A/B run's and the commands': " + enums);
    }

    @Test
    void anEnginesOwnSettingIsKnownAndItsMisspellingNamesIt() {
        Properties p = new Properties();
        p.setProperty("bench.torchCpuKernels", "engine");
        PropertyNames.checkKnown(p);
        p.setProperty("bench.torchCpuKernel", "engine");
        String message = assertThrows(io.inferbench.BenchmarkException.class, () -> PropertyNames.checkKnown(p)).getMessage();
        assertTrue(message.contains("-Dbench.torchCpuKernel (did you mean -Dbench.torchCpuKernels?)"), message);
    }

    @Test
    void anUnknownPropertyIsRefusedNamingTheClosestKnownOne() {
        Properties p = new Properties();
        p.setProperty("bench.batches", "1,2");
        p.setProperty("compare.treshold", "3");
        p.setProperty("java.version", "17");
        String message = assertThrows(io.inferbench.BenchmarkException.class, () -> PropertyNames.checkKnown(p)).getMessage();
        assertTrue(message.contains("-Dbench.batches (did you mean -Dbench.batch?)"), message);
        assertTrue(message.contains("-Dcompare.treshold (did you mean -Dcompare.threshold?)"), message);
        assertTrue(!message.contains("java.version"), message);
    }

    @Test
    void theLauncherPassesOnOnlyWhatTheUserSet() throws IOException {
        Path classpath = Files.writeString(Files.createTempFile("cp", ".txt"), "/a.jar:/b.jar");
        Properties p = new Properties();
        p.setProperty("bench.batch", "1,2");
        p.setProperty("bench.seq", "");
        p.setProperty("compare.force", "true");
        p.setProperty("user.home", "/root");
        List<String> command = MavenLauncher.command(Path.of("/repo"),
                MavenLauncher.harnessClasspath(Path.of("/repo/benchmarks/target/classes"), classpath), p);
        List<String> properties = command.stream().filter(a -> a.startsWith("-D")).toList();
        assertEquals(List.of("-Djava.awt.headless=true", "-Dinferbench.root=/repo",
                        "-Dinferbench.parentPid=" + ProcessHandle.current().pid(), "-Dbench.batch=1,2", "-Dcompare.force=true"),
                properties);
        assertEquals("/repo/benchmarks/target/classes:/a.jar:/b.jar", command.get(command.indexOf("-cp") + 1));
        assertEquals(List.of("io.inferbench.cli.InferbenchMain", "sweep"), command.subList(command.size() - 2, command.size()));
        Files.delete(classpath);
    }
}
