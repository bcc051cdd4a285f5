package io.inferbench.jmh;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With the PyTorch natives jar off the classpath and an empty native cache, DJL (offline) has nothing to load: the
 * sweep must stop in preflight with the documented message, having downloaded nothing and measured nothing.
 */
class MissingNativesTest {
    @TempDir
    Path dir;

    @Test
    void aMissingPyTorchNativeStopsTheSweepWithTheFix() throws Exception {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String withoutNatives = Arrays.stream(classpath.split(File.pathSeparator))
                .filter(entry -> !entry.contains("pytorch-native-cpu"))
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(classpath.contains("pytorch-native-cpu") && !withoutNatives.contains("pytorch-native-cpu"));
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dbench.backend=djl", "-Dbench.seq=8", "-Dbench.batch=1", "-Dbench.threads=1",
                "-Dbench.results=" + dir.resolve("results"), "-Dbench.djlCache=" + dir.resolve("empty-cache"),
                "-Dbench.cache=" + System.getProperty("bench.cache", Path.of("target", "model-cache").toAbsolutePath().toString()),
                "-cp", withoutNatives, "io.inferbench.jmh.InferbenchMain", "sweep")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the sweep did not stop");
        assertEquals(2, process.exitValue(), output);
        assertTrue(output.contains("DJL's PyTorch engine could not start"), output);
        assertTrue(output.contains("pytorch-native-cpu"), output);
        assertTrue(!output.contains("run 1 of"), "nothing may be measured: " + output);
    }
}
