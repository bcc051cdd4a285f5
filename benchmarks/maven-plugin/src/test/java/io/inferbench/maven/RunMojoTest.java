package io.inferbench.maven;

import io.inferbench.cli.ExitCode;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunMojoTest {
    @Test
    void theCommandLineWinsOverThePomsOptions() {
        Properties commandLine = new Properties();
        commandLine.setProperty("bench.batch", "1");
        Properties p = PluginOptions.of(Map.of("bench.batch", "1,2,4", "bench.seq", " 64 "), commandLine);
        assertEquals("1", p.getProperty("bench.batch"), "-Dbench.batch overrides <bench.batch>");
        assertEquals("64", p.getProperty("bench.seq"), "a pom option is taken, trimmed");
        assertEquals(System.getProperty("java.version"), p.getProperty("java.version"), "the JVM's own properties are kept");
    }

    /** {@code <bench.batch></bench.batch>} would run the default batches silently: refused, naming the element. */
    @Test
    void anEmptyPomOptionIsRefusedNamingTheElement() {
        java.util.HashMap<String, String> options = new java.util.HashMap<>();
        options.put("bench.seq", null);
        options.put("bench.callTimeoutSeconds", "  ");
        options.put("bench.batch", "1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PluginOptions.of(options, new Properties()));
        assertTrue(e.getMessage().contains("<bench.callTimeoutSeconds>, <bench.seq> with no value"), e.getMessage());
    }

    /** A misspelt {@code <option>} in place of {@code <options>}: Maven 3.8 ignores it, the plugin refuses it. */
    @Test
    void anUnknownPluginParameterIsRefusedWithWhatItMayHaveMeant() {
        org.apache.maven.model.Model model = new org.apache.maven.model.Model();
        model.setBuild(new org.apache.maven.model.Build());
        org.apache.maven.model.Plugin plugin = new org.apache.maven.model.Plugin();
        plugin.setGroupId("io.inferbench");
        plugin.setArtifactId("inferbench-maven-plugin");
        org.codehaus.plexus.util.xml.Xpp3Dom configuration = new org.codehaus.plexus.util.xml.Xpp3Dom("configuration");
        configuration.addChild(new org.codehaus.plexus.util.xml.Xpp3Dom("option"));
        configuration.addChild(new org.codehaus.plexus.util.xml.Xpp3Dom("skip"));
        plugin.setConfiguration(configuration);
        model.getBuild().addPlugin(plugin);
        org.apache.maven.project.MavenProject project = new org.apache.maven.project.MavenProject(model);

        org.apache.maven.plugin.descriptor.PluginDescriptor descriptor = new org.apache.maven.plugin.descriptor.PluginDescriptor();
        org.apache.maven.plugin.descriptor.MojoDescriptor run = new org.apache.maven.plugin.descriptor.MojoDescriptor();
        run.setGoal("run");
        for (String name : java.util.List.of("options", "skip", "root")) {
            org.apache.maven.plugin.descriptor.Parameter parameter = new org.apache.maven.plugin.descriptor.Parameter();
            parameter.setName(name);
            parameter.setEditable(true);
            try {
                run.addParameter(parameter);
            } catch (org.apache.maven.plugin.descriptor.DuplicateParameterException e) {
                throw new IllegalStateException(e);
            }
        }
        try {
            descriptor.addMojo(run);
        } catch (org.apache.maven.plugin.descriptor.DuplicateMojoDescriptorException e) {
            throw new IllegalStateException(e);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PluginOptions.checkParameters(project, descriptor));
        assertTrue(e.getMessage().contains("<option> in <configuration> (did you mean <options>?)"), e.getMessage());
        assertFalse(e.getMessage().contains("<skip>"), e.getMessage());
    }

    @Test
    void aTargetRunAloneLeavesTheEnginesOff() {
        Properties target = new Properties();
        target.setProperty("bench.target", "com.example.MyTarget");
        assertFalse(RunMojo.needsEngines(target), "the project's own ONNX Runtime or DJL must be the one its code loads");
        target.setProperty("bench.backend", "onnxruntime");
        assertTrue(RunMojo.needsEngines(target), "a target measured beside an engine needs that engine");
        assertTrue(RunMojo.needsEngines(new Properties()), "a model run needs the engines");
    }

    @Test
    void everyExitCodeIsSaidInTheFailure() {
        for (ExitCode exit : ExitCode.values()) {
            assertFalse(RunMojo.meaning(exit).isBlank(), exit.name());
        }
    }
}
