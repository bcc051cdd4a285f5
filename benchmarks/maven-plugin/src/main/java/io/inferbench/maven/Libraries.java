package io.inferbench.maven;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the project's runtime libraries and the harness's meet in one JVM. A target's classes load in a class loader
 * whose parent holds the harness, and a parent answers first: a library on both class paths is always the harness's
 * copy, whatever the project's pom says. So every library the two share is settled before measuring:
 * <ul>
 *   <li>the same version: the project's jar is left off its class path (it would never load, and run.json would hash it
 *       as code that ran);</li>
 *   <li>another version: the run is refused, naming the library, both versions and both jars, unless
 *       {@code bench.libraryConflict} says which wins: {@code harness} times the project's code on the harness's
 *       version, {@code user} runs the harness on the project's.</li>
 * </ul>
 */
final class Libraries {
    /** One jar as Maven resolved it: {@code group:artifact[:classifier]}, its version and its file. */
    record Library(String key, String version, String path) {
    }

    /** The class paths to run with: the harness's (the sweep and every fork JVM) and the target's ({@code bench.classpath}). */
    record Resolved(List<String> harness, List<String> target, List<String> notes) {
    }

    private Libraries() {
    }

    /**
     * Settles the libraries that {@code project} (the target's runtime class path after {@code projectClasses}) and
     * {@code harness} share, by {@code policy} ({@code refuse}, {@code harness} or {@code user}).
     *
     * @throws IllegalArgumentException for a version conflict the policy does not settle, with every conflict and the fix
     */
    static Resolved resolve(List<String> projectClasses, List<Library> project, List<Library> harness, String policy) {
        if (!List.of("refuse", "harness", "user").contains(policy)) {
            throw new IllegalArgumentException("-Dbench.libraryConflict=" + policy + " is not a choice: expected refuse, "
                    + "harness or user");
        }
        Map<String, Library> harnessByKey = new LinkedHashMap<>();
        harness.forEach(library -> harnessByKey.put(library.key(), library));
        List<String> conflicts = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        List<String> target = new ArrayList<>(projectClasses);
        for (Library mine : project) {
            Optional<Library> theirs = Optional.ofNullable(harnessByKey.get(mine.key()));
            if (theirs.isEmpty()) {
                target.add(mine.path());
            } else if (!theirs.get().version().equals(mine.version())) {
                conflicts.add(mine.key() + ": your project " + mine.version() + " (" + mine.path() + "), the harness "
                        + theirs.get().version() + " (" + theirs.get().path() + ")");
                if (policy.equals("user")) {
                    harnessByKey.put(mine.key(), mine);
                }
            }
        }
        if (!conflicts.isEmpty()) {
            switch (policy) {
                case "harness" -> notes.add("your code runs on the harness's version of " + String.join("; ", conflicts)
                        + " (-Dbench.libraryConflict=harness)");
                case "user" -> notes.add("the harness runs on your project's version of " + String.join("; ", conflicts)
                        + " (-Dbench.libraryConflict=user)");
                default -> throw new IllegalArgumentException("Your project and the harness need different versions of "
                        + (conflicts.size() == 1 ? "a library" : conflicts.size() + " libraries") + " in one JVM: "
                        + String.join("; ", conflicts) + ". One version loads for both. Align the versions in your pom, or "
                        + "say which wins: -Dbench.libraryConflict=harness times your code on the harness's version (not "
                        + "the one you ship), -Dbench.libraryConflict=user runs the harness on yours");
            }
        }
        List<String> harnessPaths = harnessByKey.values().stream().map(Library::path).toList();
        return new Resolved(harnessPaths, target, notes);
    }
}
