package io.inferbench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two builds of a user's target A/B'd in {@code passes}, both in one fork JVM (issue 66): their calls alternating by
 * default, and what keeps them apart instead (a JVM-wide resource, a JVM-wide setting changed differently, native code
 * that differs). The A/B run's own rules over pairs are {@link AbRunTest}'s.
 */
class AbPassesTargetTest {

    @TempDir
    Path dir;

    private AbRuns runs;

    @BeforeEach
    void fixture() {
        runs = new AbRuns(dir);
    }

    /**
     * Issue 66: two builds of a target in the passes mode, the default: one fork JVM per pair holds both, each build in
     * a class-loader layer of its own, their calls alternating; B's doubled forward stage is a regression.
     */
    @Test
    void twoBuildsOfATargetAlternateInOneForkPerPairByDefault() throws Exception {
        Properties p = runs.ab(runs.build("main", "60", "0"), runs.build("pr", "120", "0"));
        p.setProperty("bench.batch", "1,2");
        AbRuns.Ran ran = runs.run(p);
        assertEquals(1, ran.code(), ran.console());
        assertEquals("passes", ran.run().path("ab").path("mode").asText());
        assertTrue(ran.console().contains("each build in a class-loader layer of its own"), ran.console());
        int pairs = ran.run().path("ab").path("cells").get(0).path("pairs").size();
        assertEquals(ran.run().path("forkJvms").size(), pairs, "one fork JVM per pair: " + ran.run().path("forkJvms"));
        for (JsonNode cell : ran.ab().path("cells")) {
            assertEquals("slower", cell.path("p50").path("verdict").asText(), cell.toString());
            assertTrue(cell.path("p50").path("regression").asBoolean(), cell.toString());
        }
        JsonNode baseline = AbRuns.JSON.readTree(ran.runDir().resolve("baseline/run.json").toFile());
        double a = baseline.path("cells").get(0).path("latencyMs").path("p50Ms").asDouble();
        double b = ran.run().path("cells").get(0).path("latencyMs").path("p50Ms").asDouble();
        assertTrue(b > a * 1.3, "each side's cell is its own calls: A " + a + " ms, B " + b + " ms");
    }

    /**
     * A target that holds a JVM-wide resource (here a port it binds, as a registry entry would be) cannot open twice in
     * one JVM: the passes mode's preflight opens both builds together and refuses it, naming the fix.
     */
    @Test
    void aTargetThatCannotOpenTwiceInOneJvmIsRefusedInThePassesPreflight() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        String source = TargetSources.spinning(AbRuns.TARGET)
                .replace("private Stages stages;", "private Stages stages;\n    private java.net.ServerSocket server;")
                .replace("stages = context.stages();", "stages = context.stages();\n"
                        + "        try {\n"
                        + "            server = new java.net.ServerSocket(" + port + ", 1, java.net.InetAddress.getLoopbackAddress());\n"
                        + "        } catch (java.io.IOException e) {\n"
                        + "            throw new IllegalStateException(\"port " + port + " is already bound\", e);\n"
                        + "        }")
                .replace("private static long spin(long ns) {", "@Override public void close() {\n"
                        + "        try { if (server != null) server.close(); } catch (java.io.IOException e) { }\n    }\n\n"
                        + "    private static long spin(long ns) {");
        Path a = TargetSources.compile(dir.resolve("a"), Map.of(AbRuns.TARGET, source));
        Path b = TargetSources.compile(dir.resolve("b"), Map.of(AbRuns.TARGET, source));
        Properties p = runs.ab(a, b);
        p.setProperty("bench.ab.mode", "passes");
        AbRuns.Ran ran = runs.run(p);
        assertEquals(2, ran.code(), ran.console());
        assertTrue(ran.console().contains("this JVM holds another build of it, open beside this one")
                && ran.console().contains("port " + port + " is already bound")
                && ran.console().contains("-Dbench.ab.mode=forks"), ran.console());
        assertFalse(ran.console().contains("A/B pair 1"), "refused before the first pair");
    }

    /**
     * Builds that change a JVM-wide setting differently when they open (a system property, here) would each run with
     * the other's in one JVM: the passes preflight finds it, and the run says so and measures in forks.
     */
    @Test
    void buildsThatChangeAJvmWideSettingDifferentlyFallBackToForks() throws Exception {
        Properties p = runs.ab(runs.build("main", "60", "0", "small"), runs.build("pr", "60", "0", "large"));
        p.setProperty("bench.ab.maxPairs", "1");
        p.setProperty("bench.batch", "1");
        AbRuns.Ran ran = runs.run(p);
        assertEquals(4, ran.code(), "one pair decides nothing: " + ran.console());
        assertTrue(ran.console().contains("A/B: forks, not passes: the two builds change JVM-wide settings differently when "
                + "they open (system property ext.SpinTarget.cache: 'large' as the build opened first left it, 'small' by this one)"),
                ran.console());
        assertEquals("forks", ran.run().path("ab").path("mode").asText());
        assertEquals("ok", ran.run().path("cells").get(0).path("status").asText(), "measured in forks: " + ran.console());
    }

    /** Builds whose native code differs cannot share a process: the run says so and measures in forks. */
    @Test
    void buildsWithDifferentNativeCodeFallBackToForks() throws Exception {
        Path code = runs.build("main", "60", "0");
        Path nativeA = nativeJar("a", "1");
        Path nativeB = nativeJar("b", "2");
        Properties p = runs.ab(code, code);
        p.setProperty("bench.ab.baseline", code + java.io.File.pathSeparator + nativeA);
        p.setProperty("bench.classpath", code + java.io.File.pathSeparator + nativeB);
        p.setProperty("bench.ab.maxPairs", "1");
        p.setProperty("bench.batch", "1");
        AbRuns.Ran ran = runs.run(p);
        assertEquals(4, ran.code(), ran.console());
        assertTrue(ran.console().contains("forks, not passes: A's native-1.jar and B's native-2.jar hold native code that "
                + "differs"), ran.console());
        assertEquals("forks", ran.run().path("ab").path("mode").asText());
    }

    private Path nativeJar(String folder, String version) throws IOException {
        Path jar = Files.createDirectories(dir.resolve(folder)).resolve("native-" + version + ".jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry("lib/libdemo.so"));
            out.write(version.getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
