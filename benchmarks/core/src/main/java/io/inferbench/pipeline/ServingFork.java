package io.inferbench.pipeline;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.results.Json;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.ServingResult;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ForkRun;
import io.inferbench.runner.JvmDeath;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Serving, the soak and ablation of a target ({@code -Dbench.target}) in a JVM of their own, as the sweep measures a
 * target's cells in fork JVMs: the user's call may never return, exit the JVM or crash it, and none of that may end or
 * hang the run that holds the measured cells. The serving JVM starts as a fork does (the fork JVM options, the measuring
 * environment, the run's settings) and loads the target in the same class-loader layers; every served call is under its
 * watch ({@link io.inferbench.serve.ServedCallWatch}), and it ends itself when this JVM is gone.
 *
 * <p>It writes what it has served after each point, so when it dies, the points it finished are kept in run.json and
 * the stage is recorded as failed with how the JVM ended and its last lines.
 */
public final class ServingFork {
    /** The file the serving JVM reads the run from, in the work folder. */
    public static final String RUN_FILE = "run.json";
    /** The file it writes what it has served to, after each point and at the end. */
    public static final String SERVED_FILE = "served.json";
    /** The file it writes once serving has ended, whatever it served. */
    public static final String DONE_FILE = "done";
    /** What the serving JVM's watch says when it stops a call that did not return, written before it halts. */
    public static final String TIMEOUT_FILE = "timed-out.txt";
    /** Lines of the serving JVM's output kept for an error message. */
    static final int TAIL_LINES = 8;

    /**
     * How to start the serving JVM.
     *
     * @param command     {@code java}, its options and class path, the main class and the command that serves; the
     *                    work folder is added as its last argument
     * @param environment variables added to its environment, as to a fork JVM's
     */
    public record Jvm(List<String> command, Map<String, String> environment) {
        public Jvm {
            command = List.copyOf(command);
            environment = Map.copyOf(environment);
        }
    }

    private final Jvm jvm;

    public ServingFork(Jvm jvm) {
        this.jvm = jvm;
    }

    /**
     * Serves {@code run}'s target in the serving JVM, its output passed on to {@code console}.
     *
     * @throws Stage.Failed when it ended without finishing, with the run holding what it had served
     */
    RunResult serve(RunResult run, PrintStream console) throws Stage.Failed, InterruptedException {
        Path work;
        try {
            work = Files.createTempDirectory("inferbench-serving");
        } catch (IOException e) {
            throw new BenchmarkException("Could not make a folder for the serving JVM: " + e.getMessage() + ". Free space "
                    + "in " + System.getProperty("java.io.tmpdir") + " or point -Djava.io.tmpdir elsewhere", e);
        }
        try {
            return serve(run, console, work);
        } finally {
            RunStore.deleteQuietly(work);
        }
    }

    private RunResult serve(RunResult run, PrintStream console, Path work) throws Stage.Failed, InterruptedException {
        Process process;
        try {
            Json.mapper().writeValue(work.resolve(RUN_FILE).toFile(), run);
            List<String> command = new ArrayList<>(jvm.command());
            command.add(work.toString());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(jvm.environment());
            process = builder.start();
        } catch (IOException e) {
            throw new BenchmarkException("Could not start the JVM that serves the target: " + e.getMessage()
                    + ". Check -Dbench.jvmArgs", e);
        }
        Thread stop = new Thread(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }, "inferbench-stop-serving");
        Runtime.getRuntime().addShutdownHook(stop);
        Deque<String> tail = new ArrayDeque<>();
        List<ProcessHandle> children = new ArrayList<>();
        int code;
        long scannedNs = 0;
        try {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    console.println(line);
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                    if (System.nanoTime() - scannedNs > 1_000_000_000L) {
                        // At most once a second: a soak's lines may come often, and this JVM shares the cores.
                        process.descendants().forEach(children::add);
                        scannedNs = System.nanoTime();
                    }
                }
            } catch (IOException e) {
                console.println("[inferbench] could not read the serving JVM's output any further: " + e.getMessage());
            }
            code = process.waitFor();
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw e;
        } finally {
            Runtime.getRuntime().removeShutdownHook(stop);
            // What the target started ends with the JVM that served it, whatever ended that JVM.
            children.forEach(ProcessHandle::destroyForcibly);
        }
        ServingResult served = read(work.resolve(SERVED_FILE));
        if (code == 0 && Files.exists(work.resolve(DONE_FILE)) && served != null) {
            return run.withServing(served);
        }
        ForkExecutor.ForkExit exit = new ForkExecutor.ForkExit(process.pid(), code, 0, String.join("\n", tail));
        // The console has had every line; the last two, where a target says why it ended, go with the error.
        List<String> said = tail.stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
        String last = String.join(" | ", said.subList(Math.max(0, said.size() - 2), said.size()));
        String timedOut = code != TIMED_OUT ? null : timeoutSaid(work.resolve(TIMEOUT_FILE));
        int points = served == null ? 0 : served.points().size();
        String message = "serving the target stopped: the serving JVM " + (timedOut != null ? "was stopped: "
                + timedOut.replaceFirst("^\\[inferbench\\] *", "") : code == 0 ? "ended without finishing" : JvmDeath.describe(exit))
                + "; " + points + " point(s) it finished are kept in run.json"
                + (timedOut != null || last.isEmpty() ? "" : "; its last output: " + Text.shorten(last, 400));
        // Its own crash (exit code 3) and a kill from outside are not the target's doing; a timeout or any other exit is.
        boolean fromOutside = code == 128 + 9 || code == 128 + 15;
        throw new Stage.Failed(message, served == null ? null : run.withServing(served),
                timedOut != null || !fromOutside && code != HARNESS_CRASH);
    }

    /**
     * What the serving JVM's watch wrote when it stopped a call ({@link #TIMEOUT_FILE}): the timeout, the limit and where
     * the call was; said generally where the file could not be written.
     */
    private static String timeoutSaid(Path file) {
        try {
            String said = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (!said.isEmpty()) {
                return said;
            }
        } catch (IOException e) {
            // said below
        }
        return "a served call did not return within -Dbench.callTimeoutSeconds (where it was is in the console above)";
    }

    /** What the serving JVM wrote it had served, or null when it wrote nothing readable. */
    private static ServingResult read(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            return Json.mapper().readValue(file.toFile(), ServingResult.class);
        } catch (IOException e) {
            return null;
        }
    }

    /** The serving JVM's exit code for a crash of the harness's own code in it (the command line's exit code 3). */
    static final int HARNESS_CRASH = 3;
    /** The serving JVM's exit code when its watch stopped a call that did not return. */
    public static final int TIMED_OUT = ForkRun.TIMED_OUT;
}
