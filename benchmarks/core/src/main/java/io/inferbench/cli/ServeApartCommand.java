package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.pipeline.BenchmarkRun;
import io.inferbench.pipeline.ServingFork;
import io.inferbench.results.Json;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.ServingResult;
import io.inferbench.runner.ForkRun;
import io.inferbench.runner.SweepOptions;
import io.inferbench.serve.ServeOptions;
import io.inferbench.serve.ServedCallWatch;
import io.inferbench.sweep.SweptAxis;
import io.inferbench.workload.Workload;
import io.inferbench.workload.WorkloadOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * {@code serve-apart WORK}: the serving JVM of a target's run ({@link ServingFork}). It reads the run's settings from
 * its properties, as the sweep JVM did, and the finished sweep from {@code WORK/run.json}; serves it under the served
 * calls' watch ({@link ServedCallWatch}), which halts this JVM when a call passes {@code -Dbench.callTimeoutSeconds};
 * and writes what it has served to {@code WORK/served.json} after each point, then {@code WORK/done}.
 */
final class ServeApartCommand {
    static final String NAME = "serve-apart";

    private ServeApartCommand() {
    }

    static ExitCode run(String[] args, Properties p, PrintStream out) throws Exception {
        if (args.length != 1) {
            throw new BenchmarkException(NAME + " needs the serving JVM's work folder; the sweep starts it (a target's "
                    + "serving, -Dbench.target with -Dbench.rate, -Dbench.concurrency or a soak)");
        }
        Path work = Path.of(args[0]);
        RunResult run = RunStore.readRun(work.resolve(ServingFork.RUN_FILE));
        // The sweep JVM said what the settings mean already: nothing of it is said twice.
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        WorkloadOptions workloadOptions = Settings.workload(p);
        SweepOptions options = SweptAxis.bind(Settings.sweep(p), Setting.SEQ.userValue(p).isPresent(), workloadOptions.any(),
                quiet);
        ServeOptions serve = Settings.serve(p, options);
        Workload workload = workloadOptions.any()
                ? workloadOptions.load(options.engines().cacheDir(), options.engines().nativeCacheDir()) : null;
        double limitSeconds = callTimeoutSeconds(options, run);
        out.println("[inferbench] serving the target in a JVM of its own (pid " + ProcessHandle.current().pid() + "), as "
                + "its cells were measured: " + (limitSeconds > 0 ? "each served call is limited to "
                + io.inferbench.Text.plain(limitSeconds) + " s (-Dbench.callTimeoutSeconds), and a call that passes it"
                : "no call timeout (-Dbench.callTimeoutSeconds), and a call") + " or ends the JVM ends serving alone");
        try (ServedCallWatch watch = limitSeconds > 0 ? ServedCallWatch.install(limitSeconds, message -> {
            out.println("[inferbench] " + message);
            out.flush();
            try {
                // For the run's JVM, which reads it rather than this console's last lines.
                Files.writeString(work.resolve(ServingFork.TIMEOUT_FILE), message, StandardCharsets.UTF_8);
            } catch (IOException e) {
                out.println("[inferbench] could not write " + ServingFork.TIMEOUT_FILE + ": " + e.getMessage());
            }
            ForkRun.endChildren();
            Runtime.getRuntime().halt(ServingFork.TIMED_OUT);
        }) : null) {
            ServingResult result = BenchmarkRun.serve(options, serve, workloadOptions, workload, run, out, soFar -> write(work, soFar));
            write(work, result);
        }
        Files.writeString(work.resolve(ServingFork.DONE_FILE), "");
        return ExitCode.OK;
    }

    /**
     * The limit on one served call: the one asked for, or as {@code auto} sets it for the cells, from the slowest pass
     * the sweep measured rather than the preflight's probes.
     */
    static double callTimeoutSeconds(SweepOptions options, RunResult run) {
        if (options.rules().callTimeoutSeconds() != null) {
            return options.rules().callTimeoutSeconds();
        }
        double slowestMs = run.cells() == null ? 0 : run.cells().stream().filter(c -> c.latencyMs() != null)
                .mapToDouble(c -> c.latencyMs().maxMs()).max().orElse(0);
        return Math.max(SweepOptions.Rules.MIN_AUTO_CALL_TIMEOUT_SECONDS,
                Math.ceil(SweepOptions.Rules.AUTO_CALL_TIMEOUT_FACTOR * slowestMs / 1000));
    }

    /** Written whole or not at all: the sweep may read it after this JVM died at any point. */
    private static void write(Path work, ServingResult served) {
        Path file = work.resolve(ServingFork.SERVED_FILE);
        Path partial = work.resolve(ServingFork.SERVED_FILE + ".part");
        try {
            Json.mapper().writeValue(partial.toFile(), served);
            Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new BenchmarkException("Could not write what was served to " + file + ": " + e.getMessage(), e);
        }
    }
}
