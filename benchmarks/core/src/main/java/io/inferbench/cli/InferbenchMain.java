package io.inferbench.cli;

import io.inferbench.option.PropertyValues;
import io.inferbench.BenchmarkException;
import io.inferbench.model.ExampleModels;
import io.inferbench.runner.ForkExecutor;
import io.inferbench.runner.ParentWatch;
import io.inferbench.runner.SweepOptions;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.function.Function;

/**
 * The command line: {@code sweep}, {@code analyze}, {@code compare}, and the two steps Maven runs around them,
 * {@code check-properties} and {@code launch-sweep} (see {@link MavenLauncher}).
 *
 * <p>Settings come from system properties ({@link Setting}); {@code analyze} and {@code compare} also take their files as
 * arguments: {@code analyze [RUN.json [OUT_DIR]]}, {@code compare [BASELINE.json CANDIDATE.json [OUT_DIR]]}, an empty
 * argument counting as absent. Exit codes are {@link ExitCode}s: 0 ok, 1 a finding (failed cell, regression,
 * analysis not reproduced), 2 bad input or usage, 3 a crash. Anything thrown that is not a {@link BenchmarkException}
 * is a crash, never a finding.
 */
public final class InferbenchMain {
    static final String COMMANDS = "[sweep, analyze, compare, merge, example-models, gpucheck, gate, check-properties, launch-sweep]";

    private InferbenchMain() {
    }

    /** For a JVM of its own (the sweep): always exits, so that no engine thread keeps the JVM alive. */
    public static void main(String[] args) {
        watchParent();
        int code = run(args, System.getProperties(), System.out, System.err).code();
        // The serving JVM calls a target, and the sweep's serves an engine's model: what either started ends with it.
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        System.exit(code);
    }

    /**
     * The watch on the JVM that started this one ({@link MavenLauncher#PARENT_PID_PROPERTY}: Maven's, or the sweep's for
     * a serving JVM): a {@code kill -9} of it runs no hook, and this JVM would measure on as an orphan and move
     * {@code results/latest} when nobody waits. Once it is gone this JVM exits through {@link System#exit}, so that its
     * own hooks stop the fork JVM it runs; what was measured stays in {@code run.json}, written after every fork JVM.
     */
    private static void watchParent() {
        String pid = System.getProperty(MavenLauncher.PARENT_PID_PROPERTY, "").trim();
        if (!pid.isEmpty()) {
            ParentWatch.start(Long.parseLong(pid), gone -> {
                System.err.println("[inferbench] the JVM that started this one (pid " + gone + ") is gone: this run "
                        + "stops, its fork JVM with it; what was measured is in run.json");
                System.exit(ExitCode.INTERNAL_ERROR.code());
            });
        }
    }

    public static ExitCode run(String[] args, Properties properties, PrintStream out, PrintStream err) {
        return run(args, properties, out, err, null);
    }

    /**
     * As above, the sweep's fork JVMs run by the executor {@code forks} makes for its options (a test's, in-process);
     * null: fork JVMs ({@link SweepCommand#run(Properties, PrintStream)}).
     */
    static ExitCode run(String[] args, Properties properties, PrintStream out, PrintStream err,
                        Function<SweepOptions, ForkExecutor> forks) {
        String command = args.length == 0 ? "sweep" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        boolean trace = "true".equalsIgnoreCase(properties.getProperty(Setting.TRACE.property(), "").trim());
        try {
            return switch (command) {
                case "sweep" -> forks == null ? SweepCommand.run(properties, out) : SweepCommand.run(properties, out, forks);
                case "analyze" -> AnalyzeCommand.run(rest, properties, out, err);
                case "compare" -> CompareCommand.run(rest, properties, out, err);
                case "merge" -> MergeCommand.run(properties, out, err);
                case ServeApartCommand.NAME -> ServeApartCommand.run(rest, properties, out);
                case "example-models" -> {
                    PropertyNames.checkKnown(properties);
                    Path dir = CommandSetting.OUT.userValue(properties).map(o -> Path.of(o).toAbsolutePath().normalize())
                            .orElse(Settings.root(properties).resolve("target/example-models"));
                    for (Path file : ExampleModels.write(dir, PropertyValues.parseLong(Setting.SEED, properties))) {
                        out.println("[inferbench] wrote " + file);
                    }
                    yield ExitCode.OK;
                }
                case "gpucheck" -> GpuCheckCommand.run(properties, out);
                case "gate" -> GateCommand.run(properties, out);
                case "check-properties" -> {
                    PropertyNames.checkKnown(properties);
                    yield ExitCode.OK;
                }
                case "launch-sweep" -> MavenLauncher.launch(rest, properties, err);
                default -> {
                    err.println("[inferbench] unknown command '" + command + "': expected one of " + COMMANDS);
                    yield ExitCode.BAD_INPUT;
                }
            };
        } catch (io.inferbench.results.RunStore.WriteFailed e) {
            err.println();
            err.println("[inferbench] STOPPED: " + e.getMessage() + ". The run could not keep more than it wrote before, "
                    + "so it stopped (exit code " + ExitCode.INTERNAL_ERROR.code() + ": not bad input, not a finding about "
                    + "the model); run.json there says what was measured");
            if (trace) {
                e.printStackTrace(err);
            }
            return ExitCode.INTERNAL_ERROR;
        } catch (BenchmarkException e) {
            err.println();
            err.println("[inferbench] ERROR: " + e.getMessage());
            if (trace) {
                e.printStackTrace(err);
            } else {
                err.println("[inferbench] (add -Dbench.trace=true for the full stack trace)");
            }
            return ExitCode.BAD_INPUT;
        } catch (Throwable e) {
            err.println();
            err.println("[inferbench] INTERNAL ERROR in '" + command + "': " + e + ". This is a crash of inferbench, not a "
                    + "finding about the model (exit code " + ExitCode.INTERNAL_ERROR.code() + "); anything already measured is "
                    + "in run.json. Please report it with this stack trace:");
            e.printStackTrace(err);
            return ExitCode.INTERNAL_ERROR;
        }
    }

    /** An argument that is present and not blank (exec:java passes an unset property as an empty or null argument). */
    static String argument(String[] args, int index) {
        return args.length > index && args[index] != null && !args[index].isBlank() ? args[index].trim() : null;
    }
}
