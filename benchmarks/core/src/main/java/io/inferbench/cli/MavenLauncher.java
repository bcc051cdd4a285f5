package io.inferbench.cli;

import io.inferbench.serve.ServeSetting;
import io.inferbench.BenchmarkException;
import io.inferbench.serve.SoakRun;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;

/**
 * How {@code mvn verify} starts the sweep. It runs inside Maven's JVM ({@code exec:java}), where every {@code -D} the
 * user gave is a system property, and:
 * <ol>
 *   <li>refuses unknown {@code bench.*}/{@code compare.*} names ({@link Settings#checkKnown});</li>
 *   <li>starts the sweep in a JVM of its own, with the project's runtime classpath (JMH forks need a real
 *       {@code java.class.path}, which Maven's JVM does not have), passing on exactly the inferbench properties the
 *       user set, nothing else: every default lives in {@link Setting};</li>
 *   <li>adds glibc's allocator variables of {@code -Dbench.malloc} and the variables the engines' own settings ask for
 *       to its environment, as for the forks it starts ({@link MallocPolicy},
 *       {@link io.inferbench.engine.EngineProvider#measuringEnvironment});</li>
 *   <li>with {@code -Dbench.soakSeconds}, starts it with {@value SoakRun#PRE_TOUCH}, so the heap's first use of its pages
 *       does not read as a growing resident set;</li>
 *   <li>gives that JVM Maven's console (inherited, so a terminal stays a terminal for the progress line) and the
 *       folder Maven was started in, so relative paths mean what the user typed;</li>
 *   <li>ends with the sweep's own exit code (0, 1, 2), or 3 if the sweep JVM crashed or was killed.</li>
 * </ol>
 *
 * <p>Arguments: the repository root (for default paths), the compiled classes folder, and the file that
 * {@code dependency:build-classpath} wrote.
 */
public final class MavenLauncher {
    /** The system property that carries the parent's process id to the JVM it starts ({@code InferbenchMain}'s watch). */
    static final String PARENT_PID_PROPERTY = "inferbench.parentPid";

    private MavenLauncher() {
    }

    static ExitCode launch(String[] args, Properties p, PrintStream err) throws IOException, InterruptedException {
        if (args.length < 3) {
            err.println("[inferbench] launch-sweep needs: ROOT CLASSES_DIR CLASSPATH_FILE (it is run by mvn verify)");
            return ExitCode.BAD_INPUT;
        }
        PropertyNames.checkKnown(p);
        return launch(Path.of(args[0]), harnessClasspath(Path.of(args[1]), Path.of(args[2])), p, err);
    }

    /**
     * Starts the sweep on {@code harnessClasspath} (the harness's jars, never the user's: a target's classes come with
     * {@code -Dbench.classpath}) with the inferbench properties in {@code p}, relative defaults resolved from
     * {@code root}, and waits for it. Maven's plugin ({@code inferbench:run}) calls this after checking the names.
     */
    /**
     * Whether the jar at {@code path} holds a native library: the plugin settles such a library between the project
     * and the harness's engines before launching, since two versions of one cannot load in one process.
     */
    public static boolean holdsNativeCode(String path) {
        return io.inferbench.engine.Jars.holdsNativeCode(Path.of(path));
    }

    public static ExitCode launch(Path root, List<String> harnessClasspath, Properties p, PrintStream err)
            throws IOException, InterruptedException {
        return launch(root, harnessClasspath, p, err, "launch-sweep");
    }

    /**
     * As above, the run recorded in this build's record ({@link BuildRecord}) under {@code module}, so that the gate
     * checks it, and only this build's runs.
     */
    public static ExitCode launch(Path root, List<String> harnessClasspath, Properties p, PrintStream err, String module)
            throws IOException, InterruptedException {
        int entry = BuildRecord.begin(root, module);
        Path runFolderFile = Path.of(BuildRecord.read(root).runs().get(entry).runFolderFile());
        List<String> command = command(root, harnessClasspath, p);
        command.add(1, "-D" + BuildRecord.RUN_FOLDER_PROPERTY + "=" + runFolderFile);
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO().directory(Path.of("").toAbsolutePath().toFile());
        // The sweep JVM runs preflight, the profile and serving with the engines in it: the same allocator and engine
        // variables as the forks.
        builder.environment().putAll(ForkSettings.forkJvms(p).measuringEnvironment());
        Process sweep = builder.start();
        Thread stopSweep = new Thread(sweep::destroy, "inferbench-stop-sweep");
        Runtime.getRuntime().addShutdownHook(stopSweep);
        int code = sweep.waitFor();
        Runtime.getRuntime().removeShutdownHook(stopSweep);
        ExitCode exit = ExitCode.of(code);
        if (exit.code() != code) {
            err.println("[inferbench] the sweep JVM ended with exit code " + code + " (a crash or a kill, not a finding); "
                    + "every cell it finished is in run.json. Exit code " + ExitCode.INTERNAL_ERROR.code());
        }
        BuildRecord.end(root, entry, exit, exit == ExitCode.BAD_INPUT ? "refused before measuring (exit code 2): the "
                + "build's log says why" : null);
        return exit;
    }

    static List<String> harnessClasspath(Path classes, Path classpathFile) {
        String dependencies;
        try {
            dependencies = Files.readString(classpathFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new BenchmarkException("Could not read the classpath file " + classpathFile + " that "
                    + "dependency:build-classpath writes: run the sweep through mvn verify", e);
        }
        List<String> entries = new ArrayList<>();
        entries.add(classes.toAbsolutePath().toString());
        if (!dependencies.isEmpty()) {
            entries.addAll(List.of(dependencies.split(File.pathSeparator)));
        }
        return entries;
    }

    static List<String> command(Path root, List<String> harnessClasspath, Properties p) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Djava.awt.headless=true");
        command.addAll(runFlags(root, p));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, harnessClasspath));
        command.add(InferbenchMain.class.getName());
        command.add("sweep");
        return command;
    }

    /**
     * The flags that carry a run to a JVM of its own (the sweep's, the serving JVM's): the inferbench properties the user
     * set and nothing else, the repository root, this JVM as the parent it watches, and with a soak every heap page
     * touched at start.
     */
    static List<String> runFlags(Path root, Properties p) {
        List<String> flags = new ArrayList<>();
        if (ServeSetting.SOAK_SECONDS.userValue(p).isPresent()) {
            // A soak reads the resident set's trend: pages of the heap the JVM touches for the first time would read as
            // growth (docs/findings.md, "A soak's first touches"), so every page is touched at start.
            flags.add(SoakRun.PRE_TOUCH);
        }
        flags.add("-D" + Settings.ROOT_PROPERTY + "=" + root.toAbsolutePath().normalize());
        flags.add("-D" + PARENT_PID_PROPERTY + "=" + ProcessHandle.current().pid());
        for (String name : new TreeSet<>(p.stringPropertyNames())) {
            if (Setting.owned(name) && !p.getProperty(name).isBlank()) {
                flags.add("-D" + name + "=" + p.getProperty(name).trim());
            }
        }
        return flags;
    }
}
