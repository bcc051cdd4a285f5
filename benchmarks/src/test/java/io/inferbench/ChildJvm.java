package io.inferbench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Runs {@code InferbenchMain} in a fresh JVM whose classpath lacks some artifacts, to test behaviour without them.
 *
 * <p>The child's output goes to a file, not a pipe, so that {@code waitFor} with a timeout really can fire: reading a
 * pipe to its end first would block for as long as the child runs.
 */
public final class ChildJvm {
    public static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** What the child printed (stdout and stderr together) and its exit code. */
    public record Result(int exitCode, String output) {
    }

    private ChildJvm() {
    }

    public static Result runWithout(String artifact, List<String> systemProperties, String... args)
            throws IOException, InterruptedException {
        return runWithout(List.of(artifact), systemProperties, TIMEOUT, args);
    }

    /**
     * @param artifacts substrings of classpath entries to leave out; each must match at least one entry, or leaving it
     *                  out would prove nothing
     */
    public static Result runWithout(List<String> artifacts, List<String> systemProperties, Duration timeout, String... args)
            throws IOException, InterruptedException {
        return run("io.inferbench.cli.InferbenchMain", artifacts, systemProperties, timeout, args);
    }

    /** Runs {@code mainClass} with the test classpath less {@code artifacts}. */
    public static Result run(String mainClass, List<String> artifacts, List<String> systemProperties, Duration timeout,
                             String... args) throws IOException, InterruptedException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> entries = Arrays.asList(classpath.split(File.pathSeparator));
        for (String artifact : artifacts) {
            if (entries.stream().noneMatch(e -> e.contains(artifact))) {
                throw new IllegalStateException(artifact + " is not on the test classpath, so leaving it out proves nothing");
            }
        }
        String without = entries.stream().filter(e -> artifacts.stream().noneMatch(e::contains))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.awt.headless=true"));
        if (systemProperties.stream().noneMatch(p -> p.startsWith("-Djava.io.tmpdir="))) {
            // A temporary folder, and so a measuring lock, of its own: an inferbench run elsewhere on the machine
            // does not hold the child up.
            command.add("-Djava.io.tmpdir=" + Files.createTempDirectory("inferbench-child-jvm"));
        }
        command.addAll(systemProperties);
        command.addAll(List.of("-cp", without, mainClass));
        command.addAll(Arrays.asList(args));
        Path output = Files.createTempFile("child-jvm", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("the child JVM did not finish in " + timeout.toSeconds() + " s: "
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
