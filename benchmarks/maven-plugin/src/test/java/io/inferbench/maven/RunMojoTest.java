package io.inferbench.maven;

import io.inferbench.cli.ExitCode;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    @Test
    void anEmptyPomOptionIsAnEmptyValue() {
        java.util.HashMap<String, String> options = new java.util.HashMap<>();
        options.put("bench.seq", null);
        assertEquals("", PluginOptions.of(options, new Properties()).getProperty("bench.seq"));
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
