package io.inferbench.maven;

import org.apache.commons.text.similarity.LevenshteinDistance;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The properties a goal of the plugin runs with: the JVM's own (as {@code exec:java} sees them), then the plugin's
 * {@code <options>} from the pom, then every {@code -D} on Maven's command line, each later one winning. So
 * {@code -Dbench.batch=1} on the command line overrides {@code <bench.batch>1,2,4</bench.batch>} in the pom, and a
 * name misspelt in either is refused by the same check as in inferbench's own build.
 */
final class PluginOptions {
    /** The plugin as a pom names it. */
    static final String KEY = "io.inferbench:inferbench-maven-plugin";

    private PluginOptions() {
    }

    /**
     * Refuses an element of the plugin's {@code <configuration>} in {@code project}'s pom that no goal of the plugin
     * reads (a misspelt {@code <option>} for {@code <options>}): Maven 3.8 ignores it silently, and the run would then
     * measure the wrong subject or fail on a default. Checked against every goal's parameters, since a plugin-level
     * configuration serves them all.
     *
     * @throws IllegalArgumentException naming the element, what it may have meant, and the parameters there are
     */
    static void checkParameters(MavenProject project, PluginDescriptor plugin) {
        if (project == null || plugin == null || plugin.getMojos() == null) {
            return;
        }
        Set<String> known = new TreeSet<>();
        plugin.getMojos().forEach(m -> {
            if (m.getParameters() != null) {
                m.getParameters().forEach(param -> {
                    if (param.isEditable()) {
                        known.add(param.getName());
                    }
                });
            }
        });
        List<String> unknown = new ArrayList<>();
        for (Plugin p : project.getBuildPlugins()) {
            if (!KEY.equals(p.getKey())) {
                continue;
            }
            unknown.addAll(unknown(p.getConfiguration(), known, "<configuration>"));
            for (PluginExecution e : p.getExecutions()) {
                unknown.addAll(unknown(e.getConfiguration(), known, "execution '" + e.getId() + "'"));
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("the pom configures inferbench's plugin with " + String.join(", ", unknown)
                    + ", which no goal of the plugin reads, so Maven would ignore it; its parameters are " + known
                    + " (docs/your-project.md)");
        }
    }

    private static List<String> unknown(Object configuration, Set<String> known, String where) {
        List<String> out = new ArrayList<>();
        if (!(configuration instanceof Xpp3Dom dom)) {
            return out;
        }
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        for (Xpp3Dom child : dom.getChildren()) {
            if (!known.contains(child.getName())) {
                String meant = known.stream().min(Comparator.comparingInt(k -> distance.apply(k, child.getName()))).orElse(null);
                out.add("<" + child.getName() + "> in " + where + (meant != null && distance.apply(meant, child.getName()) <= 3
                        ? " (did you mean <" + meant + ">?)" : ""));
            }
        }
        return out;
    }

    /**
     * @throws IllegalArgumentException for an element of {@code <options>} with no value: Maven would pass it as empty,
     *                                  and the run would quietly use the default
     */
    static Properties of(Map<String, String> pomOptions, Properties commandLine) {
        Properties p = new Properties();
        p.putAll(System.getProperties());
        if (pomOptions != null) {
            List<String> empty = pomOptions.entrySet().stream().filter(e -> e.getValue() == null || e.getValue().isBlank())
                    .map(e -> "<" + e.getKey() + ">").sorted().toList();
            if (!empty.isEmpty()) {
                throw new IllegalArgumentException("the plugin's <options> hold " + String.join(", ", empty) + " with no value: "
                        + "give each a value, or remove the element to use its default (docs/options.md)");
            }
            pomOptions.forEach((name, value) -> p.setProperty(name, value.trim()));
        }
        commandLine.forEach((name, value) -> p.setProperty(name.toString(), value.toString()));
        return p;
    }
}
