package io.inferbench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Runs {@code InferbenchMain} in a fresh JVM whose classpath lacks one artifact, to test behaviour without it. */
public final class ChildJvm {
    /** What the child printed (stdout and stderr together) and its exit code. */
    public record Result(int exitCode, String output) {
    }

    private ChildJvm() {
    }

    public static Result runWithout(String artifact, List<String> systemProperties, String... args)
            throws IOException, InterruptedException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String without = Arrays.stream(classpath.split(File.pathSeparator))
                .filter(entry -> !entry.contains(artifact))
                .collect(Collectors.joining(File.pathSeparator));
        if (!classpath.contains(artifact) || without.contains(artifact)) {
            throw new IllegalStateException(artifact + " is not on the test classpath, so leaving it out proves nothing");
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true"));
        command.addAll(systemProperties);
        command.addAll(List.of("-cp", without, "io.inferbench.jmh.InferbenchMain"));
        command.addAll(Arrays.asList(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the child JVM did not finish in 120 s: " + output);
        }
        return new Result(process.exitValue(), output);
    }
}
