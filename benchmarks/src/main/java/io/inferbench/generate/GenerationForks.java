package io.inferbench.generate;

import io.inferbench.BenchmarkException;
import io.inferbench.results.Json;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link GenerationJob} in a fresh JVM ({@link GenerationForkMain}) with the class path of this one, the fork JVM
 * options ({@code -Dbench.jvmArgs}) and the measuring environment (the allocator's and PyTorch's kernels' variables), as
 * the sweep's fork JVMs run. The fork's lines go to the console as they come.
 */
public final class GenerationForks {
    private static final int TAIL_LINES = 20;

    private final String jvmArgs;
    private final Map<String, String> environment;
    private final PrintStream console;

    public GenerationForks(String jvmArgs, Map<String, String> environment, PrintStream console) {
        this.jvmArgs = jvmArgs;
        this.environment = Map.copyOf(environment);
        this.console = console;
    }

    /**
     * Runs the job to its end.
     *
     * @throws BenchmarkException when the fork could not start, failed, or wrote no result: with its last lines
     */
    public GenerationJob.Result run(GenerationJob job) {
        try {
            Path dir = Files.createTempDirectory("inferbench-generation");
            try {
                Path jobFile = dir.resolve("job.json");
                Path resultFile = dir.resolve("result.json");
                Json.mapper().writeValue(jobFile.toFile(), job);
                List<String> command = io.inferbench.sweep.JvmForkExecutor.javaCommand(jvmArgs, List.of(),
                        GenerationForkMain.class.getName(), List.of(jobFile.toString(), resultFile.toString()));
                ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
                builder.environment().putAll(environment);
                Process process = builder.start();
                Deque<String> tail = new ArrayDeque<>();
                try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        if (line.startsWith("[inferbench] generate round")) {
                            console.println(line);
                        }
                        tail.addLast(line);
                        if (tail.size() > TAIL_LINES) {
                            tail.removeFirst();
                        }
                    }
                } finally {
                    process.destroyForcibly();
                }
                int code = process.waitFor();
                if (code != 0 || !Files.isRegularFile(resultFile)) {
                    throw new BenchmarkException("the fork JVM exited " + code + ": " + String.join(" | ", tail));
                }
                return Json.mapper().readValue(resultFile.toFile(), GenerationJob.Result.class);
            } finally {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new BenchmarkException("could not run a generation fork JVM: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchmarkException("interrupted while a generation fork JVM ran", e);
        }
    }
}
