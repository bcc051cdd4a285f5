package io.inferbench.maven;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the project's runtime libraries and the harness's meet. A target's classes load in layers of their own in every
 * JVM that runs them ({@code io.inferbench.engine.targets.TargetLayers}), which see the JDK, the inferbench API and
 * the project's class path, and none of the harness's libraries: so the project's whole runtime class path goes to
 * {@code bench.classpath}, a library both have runs at the project's version in the project's code and at the
 * harness's in the harness, and nothing is refused for it. Two libraries must still be settled:
 * <ul>
 *   <li>{@code io.inferbench:inferbench-api}, the one library the layers share: the project's copy is left off, and
 *       another version than the plugin's is refused (the target compiled against other types);</li>
 *   <li>a library with native code that the harness's engines bring too at another version, when the run measures an
 *       engine beside the target ({@code bench.backend}): two versions of one native library cannot load in one
 *       process. It is refused unless {@code bench.libraryConflict} says which wins: {@code harness} times the
 *       project's code on the harness's version, {@code user} runs the harness on the project's.</li>
 * </ul>
 */
final class Libraries {
    /** The API's coordinates: the one library the project's layer shares with the harness. */
    static final String API = "io.inferbench:inferbench-api";

    /**
     * One jar as Maven resolved it: {@code group:artifact[:classifier]}, its version and its file, and whether it holds
     * native code (a {@code .so}, {@code .dll}, {@code .dylib} or {@code .jnilib} entry).
     */
    record Library(String key, String version, String path, boolean nativeCode) {
        Library(String key, String version, String path) {
            this(key, version, path, holdsNativeCode(path));
        }
    }

    /**
     * The class paths to run with: the harness's (the sweep and every fork JVM) and the target's ({@code bench.classpath});
     * the notes to warn of (a conflict settled by the policy), and what runs apart at two versions (for information).
     */
    record Resolved(List<String> harness, List<String> target, List<String> notes, List<String> apart) {
    }

    private Libraries() {
    }

    /**
     * Settles the libraries that {@code project} (the target's runtime class path after {@code projectClasses}) and
     * {@code harness} share, by {@code policy} ({@code refuse}, {@code harness} or {@code user}).
     *
     * @throws IllegalArgumentException for a conflict that must be settled and the policy does not, with every such
     *                                  conflict and the fix
     */
    static Resolved resolve(List<String> projectClasses, List<Library> project, List<Library> harness, String policy) {
        if (!List.of("refuse", "harness", "user").contains(policy)) {
            throw new IllegalArgumentException("-Dbench.libraryConflict=" + policy + " is not a choice: expected refuse, "
                    + "harness or user");
        }
        Map<String, Library> harnessByKey = new LinkedHashMap<>();
        harness.forEach(library -> harnessByKey.put(library.key(), library));
        List<String> conflicts = new ArrayList<>();
        List<String> apart = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> target = new ArrayList<>(projectClasses);
        for (Library mine : project) {
            Library theirs = harnessByKey.get(mine.key());
            if (mine.key().equals(API)) {
                if (theirs != null && !theirs.version().equals(mine.version())) {
                    throw new IllegalArgumentException("Your project has " + API + " " + mine.version() + " (" + mine.path()
                            + ") and the plugin " + theirs.version() + ": the API is the one library your code and the "
                            + "harness share, so they must agree. Use the plugin's version, " + theirs.version()
                            + ", for the API (scope provided)");
                }
                continue;
            }
            if (theirs == null || theirs.version().equals(mine.version())) {
                target.add(mine.path());
            } else if (mine.nativeCode() || theirs.nativeCode()) {
                conflicts.add(mine.key() + ": your project " + mine.version() + " (" + mine.path() + "), the harness "
                        + theirs.version() + " (" + theirs.path() + ")");
                switch (policy) {
                    case "user" -> {
                        harnessByKey.put(mine.key(), mine);
                        target.add(mine.path());
                    }
                    case "harness" -> target.add(theirs.path());
                    default -> {
                    }
                }
            } else {
                target.add(mine.path());
                apart.add(mine.key() + " " + mine.version() + " (the harness's " + theirs.version() + ")");
            }
        }
        if (!conflicts.isEmpty()) {
            switch (policy) {
                case "harness" -> notes.add("your code runs on the harness's version of " + String.join("; ", conflicts)
                        + " (-Dbench.libraryConflict=harness)");
                case "user" -> notes.add("the harness runs on your project's version of " + String.join("; ", conflicts)
                        + " (-Dbench.libraryConflict=user)");
                default -> throw new IllegalArgumentException("Your project and the harness's engines need different "
                        + "versions of " + (conflicts.size() == 1 ? "a library" : conflicts.size() + " libraries")
                        + " with native code: " + String.join("; ", conflicts) + ". Two versions of one native library "
                        + "cannot load in one process, and this run measures an engine (-Dbench.backend) beside your "
                        + "target. Measure your target alone (drop -Dbench.backend), align the versions in your pom, or "
                        + "say which wins: -Dbench.libraryConflict=harness times your code on the harness's version (not "
                        + "the one you ship), -Dbench.libraryConflict=user runs the harness on yours");
            }
        }
        List<String> harnessPaths = harnessByKey.values().stream().map(Library::path).toList();
        return new Resolved(harnessPaths, target, notes, apart.isEmpty() ? List.of()
                : List.of("your code runs on its own " + String.join(", ", apart) + ": each loads in its own layer"));
    }

    /** Whether the jar at {@code path} holds a native library; false for a folder or a file that cannot be read. */
    static boolean holdsNativeCode(String path) {
        return io.inferbench.cli.MavenLauncher.holdsNativeCode(path);
    }
}
