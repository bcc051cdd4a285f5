package io.inferbench.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One source for every default: {@link Setting}. docs/options.md's table says the same, README.md's short table is a
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

    /** The harness's settings, then each engine's own ({@link io.inferbench.engine.Engines#settings()}). */
    private static List<String> allRows() {
        return java.util.stream.Stream.concat(Arrays.stream(Setting.values()).map(Setting::markdownRow),
                io.inferbench.engine.Engines.settings().stream().map(io.inferbench.engine.EngineSetting::markdownRow)).toList();
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
        List<String> names = java.util.stream.Stream.concat(Arrays.stream(Setting.values()).map(Setting::property),
                io.inferbench.engine.Engines.settings().stream().map(io.inferbench.engine.EngineSetting::property)).toList();
        assertEquals(names.size(), names.stream().distinct().count(), "an engine's setting must not reuse a name: " + names);
        for (Setting s : Setting.values()) {
            assertTrue(!s.meaning().isBlank() && !s.meaning().contains("|"), s.property());
        }
    }

    @Test
    void anEnginesOwnSettingIsKnownAndItsMisspellingNamesIt() {
        Properties p = new Properties();
        p.setProperty("bench.torchCpuKernels", "engine");
        Settings.checkKnown(p);
        p.setProperty("bench.torchCpuKernel", "engine");
        String message = assertThrows(io.inferbench.BenchmarkException.class, () -> Settings.checkKnown(p)).getMessage();
        assertTrue(message.contains("-Dbench.torchCpuKernel (did you mean -Dbench.torchCpuKernels?)"), message);
    }

    @Test
    void anUnknownPropertyIsRefusedNamingTheClosestKnownOne() {
        Properties p = new Properties();
        p.setProperty("bench.batches", "1,2");
        p.setProperty("compare.treshold", "3");
        p.setProperty("java.version", "17");
        String message = assertThrows(io.inferbench.BenchmarkException.class, () -> Settings.checkKnown(p)).getMessage();
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
