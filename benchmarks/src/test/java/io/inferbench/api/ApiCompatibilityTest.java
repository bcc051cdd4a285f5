package io.inferbench.api;

import io.inferbench.TestPaths;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The compatibility promise of {@code inferbench-api}, kept by semantic versions: every public signature of the API at
 * version X.Y.Z is recorded in {@code benchmarks/api/signatures/X.Y.Z.txt}. The API as compiled must equal the file of
 * the build's version; a version with no file yet must differ from the newest older one only as its bump allows (a
 * removed or changed signature needs a new major version, an added one at least a new minor). So a signature cannot
 * change under a version users already compiled against.
 *
 * <p>To change the API: bump the root pom's version, then write the new file from this test's failure message.
 */
class ApiCompatibilityTest {
    private static final Path SIGNATURES = TestPaths.ROOT.resolve("benchmarks/api/signatures");
    private static final Path API_SOURCES = TestPaths.ROOT.resolve("benchmarks/api/src/main/java/io/inferbench/api");
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

    @Test
    void theApiMatchesTheSignaturesOfItsVersion() throws Exception {
        String version = rootVersion().replace("-SNAPSHOT", "");
        List<String> current = signatures();
        Path file = SIGNATURES.resolve(version + ".txt");
        if (Files.exists(file)) {
            assertEquals(read(file), current, "inferbench-api's public signatures changed without a version change: bump the "
                    + "root pom's version (a removed or changed signature needs a new major, an addition a new minor) and "
                    + "record the new signatures in " + SIGNATURES.resolve("<version>.txt") + ":\n" + String.join("\n", current));
            return;
        }
        List<Path> older = olderFiles(version);
        String bump = older.isEmpty() ? "no older version has one either"
                : bumpProblem(read(older.get(older.size() - 1)), current, versionOf(older.get(older.size() - 1)), version);
        fail("no signature file for version " + version + " (" + bump + "); record these signatures in " + file + ":\n"
                + String.join("\n", current));
    }

    @Test
    void aBumpIsCheckedAgainstWhatChanged() {
        List<String> before = List.of("a", "b");
        assertEquals("a removed or changed signature needs a new major version (1.2.0 to 1.3.0 is not one): removed [b]",
                bumpProblem(before, List.of("a"), "1.2.0", "1.3.0"));
        assertEquals("an added signature needs at least a new minor version (1.2.0 to 1.2.1 is not one): added [c]",
                bumpProblem(before, List.of("a", "b", "c"), "1.2.0", "1.2.1"));
        assertEquals("the bump from 1.2.0 to 2.0.0 allows these changes",
                bumpProblem(before, List.of("a", "c"), "1.2.0", "2.0.0"));
        assertEquals("the bump from 1.2.0 to 1.3.0 allows these changes",
                bumpProblem(before, List.of("a", "b", "c"), "1.2.0", "1.3.0"));
    }

    @Test
    void everyApiTypeIsDocumented() throws IOException {
        List<String> undocumented = new ArrayList<>();
        try (Stream<Path> files = Files.list(API_SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java")).sorted().toList()) {
                String code = Files.readString(file);
                int type = code.indexOf("public ");
                if (type < 0 || !code.substring(0, type).contains("/**")) {
                    undocumented.add(file.getFileName().toString());
                }
            }
        }
        assertEquals(List.of(), undocumented, "every public type of the API has its Javadoc");
    }

    /** What the bump from {@code from} to {@code to} does not allow, or that it allows the changes. */
    static String bumpProblem(List<String> before, List<String> after, String from, String to) {
        List<String> removed = before.stream().filter(s -> !after.contains(s)).toList();
        List<String> added = after.stream().filter(s -> !before.contains(s)).toList();
        int[] a = parts(from);
        int[] b = parts(to);
        boolean major = b[0] > a[0];
        boolean minor = major || (b[0] == a[0] && b[1] > a[1]);
        if (!removed.isEmpty() && !major) {
            return "a removed or changed signature needs a new major version (" + from + " to " + to + " is not one): removed "
                    + removed;
        }
        if (!added.isEmpty() && !minor) {
            return "an added signature needs at least a new minor version (" + from + " to " + to + " is not one): added " + added;
        }
        return "the bump from " + from + " to " + to + " allows these changes";
    }

    /** Every public or protected type, constructor, method and field of the API, in a stable order. */
    static List<String> signatures() throws IOException, ClassNotFoundException {
        TreeSet<String> lines = new TreeSet<>();
        for (Class<?> type : types()) {
            lines.add(type.toGenericString());
            for (Constructor<?> constructor : type.getDeclaredConstructors()) {
                if (visible(constructor.getModifiers())) {
                    lines.add(constructor.toGenericString());
                }
            }
            for (Method method : type.getDeclaredMethods()) {
                if (visible(method.getModifiers()) && !method.isSynthetic()) {
                    lines.add(method.toGenericString());
                }
            }
            for (Field field : type.getDeclaredFields()) {
                if (visible(field.getModifiers())) {
                    lines.add(field.toGenericString());
                }
            }
        }
        return List.copyOf(lines);
    }

    /** The package's types, from its source files, and their public nested types: none is left out by hand. */
    private static List<Class<?>> types() throws IOException, ClassNotFoundException {
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.list(API_SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java")).sorted().toList()) {
                Class<?> type = Class.forName(Call.class.getPackageName() + "." + file.getFileName().toString().replace(".java", ""));
                types.add(type);
                Arrays.stream(type.getDeclaredClasses()).filter(c -> visible(c.getModifiers())).forEach(types::add);
            }
        }
        return types;
    }

    private static boolean visible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static List<String> read(Path file) throws IOException {
        return Files.readAllLines(file).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    private static List<Path> olderFiles(String version) throws IOException {
        try (Stream<Path> files = Files.list(SIGNATURES)) {
            return files.filter(f -> VERSION.matcher(versionOf(f)).matches())
                    .filter(f -> compare(versionOf(f), version) < 0)
                    .sorted(Comparator.comparing(ApiCompatibilityTest::versionOf, ApiCompatibilityTest::compare)).toList();
        }
    }

    private static String versionOf(Path file) {
        return file.getFileName().toString().replace(".txt", "");
    }

    private static int compare(String a, String b) {
        return Arrays.compare(parts(a), parts(b));
    }

    private static int[] parts(String version) {
        Matcher m = VERSION.matcher(version);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a semantic version X.Y.Z: " + version);
        }
        return new int[]{Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))};
    }

    private static String rootVersion() throws IOException {
        Matcher m = Pattern.compile("</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(TestPaths.ROOT.resolve("pom.xml")));
        assertTrue(m.find(), "the root pom names its version");
        return m.group(1);
    }
}
