package io.inferbench.cli;

import io.inferbench.option.PropertyValues;
import io.inferbench.BenchmarkException;
import io.inferbench.engine.UserCode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** A run's targets ({@code -Dbench.target}) and their code, as the settings give them (docs/targets.md). */
final class TargetSettings {
    private TargetSettings() {
    }

    /** The target classes asked for; empty when none was. */
    static List<String> targets(Properties p) {
        return Setting.TARGET.userValue(p).isPresent() ? PropertyValues.names(Setting.TARGET, p) : List.of();
    }

    /**
     * {@code -Dbench.target}'s code: the class-path entries of {@code -Dbench.classpath}, each checked to exist, and the
     * target's own settings ({@code -Dbench.target.NAME=VALUE}). Whether each class loads and is a target is the
     * preflight's to say, when it opens one. Refuses a class path or target settings without a target.
     */
    static UserCode userCode(Properties p, List<String> targets) {
        Map<String, String> properties = new java.util.TreeMap<>();
        p.stringPropertyNames().stream().filter(n -> n.startsWith(Setting.TARGET_PROPERTY_PREFIX))
                .forEach(n -> properties.put(n.substring(Setting.TARGET_PROPERTY_PREFIX.length()), p.getProperty(n)));
        List<Path> classpath = new ArrayList<>();
        for (String entry : Setting.CLASSPATH.userValue(p).map(v -> v.split(java.io.File.pathSeparator)).orElse(new String[0])) {
            if (entry.isBlank()) {
                continue;
            }
            Path path = Path.of(entry.trim()).toAbsolutePath().normalize();
            if (!Files.exists(path)) {
                throw new BenchmarkException("-Dbench.classpath entry " + path + " does not exist (from '" + entry.trim()
                        + "'): give the folder of your compiled classes (your project's target/classes) or your jar, "
                        + "entries separated by " + java.io.File.pathSeparator);
            }
            classpath.add(path);
        }
        if (targets.isEmpty() && (!classpath.isEmpty() || !properties.isEmpty())) {
            throw new BenchmarkException("-Dbench.classpath and -Dbench.target.NAME settings are for a target's code, and no "
                    + "target was given: add -Dbench.target=your.Class (docs/targets.md), or drop them");
        }
        String libraries = Setting.HARNESS_LIBRARIES.value(p).trim();
        if (!libraries.equals("borrow") && !libraries.equals("hidden")) {
            throw new BenchmarkException("-Dbench.harnessLibraries is borrow (a class your class path lacks comes from the "
                    + "harness's) or hidden (your code sees the JDK, the API and its own class path only); got " + libraries);
        }
        return new UserCode(classpath, properties, List.of(), libraries.equals("borrow"));
    }
}
