package io.inferbench.maven;

import java.util.Map;
import java.util.Properties;

/**
 * The properties a goal of the plugin runs with: the JVM's own (as {@code exec:java} sees them), then the plugin's
 * {@code <options>} from the pom, then every {@code -D} on Maven's command line, each later one winning. So
 * {@code -Dbench.batch=1} on the command line overrides {@code <bench.batch>1,2,4</bench.batch>} in the pom, and a
 * name misspelt in either is refused by the same check as in inferbench's own build.
 */
final class PluginOptions {
    private PluginOptions() {
    }

    static Properties of(Map<String, String> pomOptions, Properties commandLine) {
        Properties p = new Properties();
        p.putAll(System.getProperties());
        if (pomOptions != null) {
            pomOptions.forEach((name, value) -> p.setProperty(name, value == null ? "" : value.trim()));
        }
        commandLine.forEach((name, value) -> p.setProperty(name.toString(), value.toString()));
        return p;
    }
}
