package io.inferbench.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a jar on a class path is, in the words a user's pom uses: its Maven coordinates where they can be read. */
public final class Jars {
    /** A jar in a Maven repository's layout: {@code .../repository/GROUP/ARTIFACT/VERSION/ARTIFACT-VERSION[-CLASSIFIER].jar}. */
    private static final Pattern MAVEN_JAR = Pattern.compile(".*/repository/(.+)/([^/]+)/([^/]+)/\\2-\\3(-[^/]*)?\\.jar");

    private Jars() {
    }

    /** {@code group:artifact:version} of a jar in a Maven repository's layout; empty for any other path. */
    public static Optional<String> coordinates(String path) {
        Matcher m = MAVEN_JAR.matcher(path.replace('\\', '/'));
        return m.matches() ? Optional.of(m.group(1).replace('/', '.') + ":" + m.group(2) + ":" + m.group(3)) : Optional.empty();
    }

    /**
     * A jar's name as a library: its Maven coordinates, else its manifest's {@code Implementation-Title} (or file name)
     * and {@code Implementation-Version}, else its file name. Null for a folder, which is the user's classes, not a library.
     */
    public static String library(Path entry) {
        if (Files.isDirectory(entry)) {
            return null;
        }
        Optional<String> coordinates = coordinates(entry.toAbsolutePath().toString());
        if (coordinates.isPresent()) {
            return coordinates.get();
        }
        try (JarFile file = new JarFile(entry.toFile())) {
            Attributes attributes = file.getManifest() == null ? null : file.getManifest().getMainAttributes();
            String version = attributes == null ? null : attributes.getValue(Attributes.Name.IMPLEMENTATION_VERSION);
            if (version != null) {
                String title = attributes.getValue(Attributes.Name.IMPLEMENTATION_TITLE);
                return (title != null ? title : entry.getFileName().toString()) + " " + version;
            }
        } catch (IOException e) {
            return entry.getFileName().toString();
        }
        return entry.getFileName().toString();
    }

    /**
     * Whether the jar at {@code entry} holds a native library (a {@code .so}, {@code .dll}, {@code .dylib} or
     * {@code .jnilib} entry); false for a folder or a file that cannot be read.
     */
    public static boolean holdsNativeCode(Path entry) {
        if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
            return false;
        }
        try (JarFile file = new JarFile(entry.toFile())) {
            for (java.util.Enumeration<java.util.jar.JarEntry> entries = file.entries(); entries.hasMoreElements(); ) {
                String name = entries.nextElement().getName().toLowerCase(java.util.Locale.ROOT);
                if (name.endsWith(".so") || name.endsWith(".dll") || name.endsWith(".dylib") || name.endsWith(".jnilib")
                        || name.matches(".*\\.so\\.[0-9.]+")) {
                    return true;
                }
            }
        } catch (java.io.IOException e) {
            return false;
        }
        return false;
    }
}
