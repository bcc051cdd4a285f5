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
 */
public record UserCode(List<Path> classpath, Map<String, String> properties, List<Path> shared) {
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
        this(classpath, properties, List.of());
    }

    /** The entries this side loads in its own layer: its class path less the shared ones. */
    public List<Path> own() {
        return classpath.stream().filter(entry -> !shared.contains(entry)).toList();
    }
}
