package io.inferbench.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A user's own code that a run loads: the class-path entries its classes come from ({@code -Dbench.classpath}) and the
 * settings it is given ({@code -Dbench.target.NAME=VALUE}). It travels with every session's spec to every fork JVM;
 * the target engine loads the classes from these entries in each, so the user needs no edit of inferbench's build.
 *
 * @param classpath  directories and jars, in order, each checked to exist before anything runs
 * @param properties the target's settings, by name without the {@code bench.target.} prefix
 */
public record UserCode(List<Path> classpath, Map<String, String> properties) {
    public static final UserCode NONE = new UserCode(List.of(), Map.of());

    public UserCode {
        classpath = List.copyOf(classpath);
        properties = Map.copyOf(properties);
    }
}
