package io.inferbench.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A user's own code that a run loads: the class-path entries its classes come from ({@code -Dbench.classpath}) and the
 * settings it is given ({@code -Dbench.target.NAME=VALUE}). It travels with every session's spec to every fork JVM;
 * the target engine loads the classes from these entries in each, in layers of their own that the harness's
 * libraries stay out of, so the user needs no edit of inferbench's build.
 *
 * @param classpath  directories and jars, in order, each checked to exist before anything runs
 * @param properties the target's settings, by name without the {@code bench.target.} prefix
 * @param shared     the entries of {@code classpath} that the other side of a {@code passes} A/B pair has byte for
 *                   byte: they load once, in a layer beneath both sides' own (empty outside such a pair)
 * @param borrows    a class or resource the class path lacks is taken from the harness's ({@code -Dbench.harnessLibraries
 *                   =borrow}: code compiled against this repository's class path); false: the code sees the JDK, the
 *                   API and its class path only (what the Maven plugin gives, with the project's whole class path)
 */
public record UserCode(List<Path> classpath, Map<String, String> properties, List<Path> shared, boolean borrows) {
    public static final UserCode NONE = new UserCode(List.of(), Map.of());

    public UserCode {
        classpath = List.copyOf(classpath);
        properties = Map.copyOf(properties);
        shared = shared == null ? List.of() : List.copyOf(shared);
        if (!classpath.containsAll(shared)) {
            throw new IllegalArgumentException("the shared entries " + shared + " are not all on the class path " + classpath);
        }
    }

    public UserCode(List<Path> classpath, Map<String, String> properties) {
        this(classpath, properties, List.of(), false);
    }

    public UserCode(List<Path> classpath, Map<String, String> properties, List<Path> shared) {
        this(classpath, properties, shared, false);
    }

    /** The entries this side loads in its own layer: its class path less the shared ones. */
    public List<Path> own() {
        return classpath.stream().filter(entry -> !shared.contains(entry)).toList();
    }

    /**
     * A's code and B's as one fork JVM holds them in a {@code passes} pair.
     *
     * @param a           A's code, its entries that B has byte for byte marked shared
     * @param b           B's code, where a jar equal to A's at another path is named by A's path, and marked shared
     * @param cannotShare why the two cannot share a JVM (each has native code the other has not: two versions of one
     *                    native library cannot load in one process); null when they can
     */
    public record Paired(UserCode a, UserCode b, String cannotShare) {
    }

    /**
     * How a refusal to open two builds in one JVM says that they change JVM-wide settings (a system property, the
     * default locale) differently when they open: an A/B run that meets it measures in {@code forks} instead.
     */
    public static final String SETTINGS_DIFFER = "change JVM-wide settings differently when they open";

    /** {@code a} and {@code b} for one JVM: the jars both have byte for byte load once, in a layer beneath both. */
    public static Paired pair(UserCode a, UserCode b) {
        List<Path> shared = new java.util.ArrayList<>();
        List<Path> bEntries = new java.util.ArrayList<>();
        for (Path entry : b.classpath()) {
            Path same = a.classpath().contains(entry) ? entry
                    : a.classpath().stream().filter(other -> sameBytes(other, entry)).findFirst().orElse(null);
            if (same != null && java.nio.file.Files.isRegularFile(same)) {
                shared.add(same);
                bEntries.add(same);
            } else {
                bEntries.add(entry);
            }
        }
        List<Path> nativeA = a.classpath().stream().filter(e -> !shared.contains(e) && Jars.holdsNativeCode(e)).toList();
        List<Path> nativeB = bEntries.stream().filter(e -> !shared.contains(e) && Jars.holdsNativeCode(e)).toList();
        String cannotShare = nativeA.isEmpty() || nativeB.isEmpty() ? null
                : "A's " + names(nativeA) + " and B's " + names(nativeB) + " hold native code that differs, and two versions "
                + "of one native library cannot load in one process";
        return new Paired(new UserCode(a.classpath(), a.properties(), shared, a.borrows()),
                new UserCode(bEntries, b.properties(), shared, b.borrows()), cannotShare);
    }

    private static String names(List<Path> jars) {
        return String.join(", ", jars.stream().map(j -> String.valueOf(j.getFileName())).toList());
    }

    /** Whether two jars (files, not folders) hold the same bytes. */
    private static boolean sameBytes(Path x, Path y) {
        try {
            return java.nio.file.Files.isRegularFile(x) && java.nio.file.Files.isRegularFile(y)
                    && java.nio.file.Files.size(x) == java.nio.file.Files.size(y) && java.nio.file.Files.mismatch(x, y) == -1;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
