package io.inferbench.runner;

import io.inferbench.BenchmarkException;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Launches each fork as a fresh JVM: this JVM's {@code java}, its class path, {@code -Dbench.jvmArgs}, and the fork's
 * main class with the plan file, in this JVM's environment plus the allocator's variables ({@link MallocPolicy}) and the engines' own
 * ({@link io.inferbench.engine.EngineProvider#measuringEnvironment}). Everything the fork prints (JMH's output, the engines' logs) is appended to the run's
 * {@code console.log}, and echoed with {@code -Dbench.verbose=true}; its {@link ForkEvent} lines go to the caller.
 *
 * <p><b>Nothing of this JVM runs during a fork's passes</b> but this reading loop, blocked on the fork's output: the
 * sweep's own work (merging, writing {@code run.json}, the tables) happens between forks, so on a 2-core machine it never
 * competes with the engine's threads for a core.
 *
 * <p>A fork that is still running when this JVM is stopped (Ctrl-C, a CI timeout, SIGTERM) is destroyed with it; when
 * this JVM is killed outright ({@code kill -9}), the fork's own watchdog sees its parent gone and stops
 * ({@link CallWatchdog}). Every wait here has a limit: a fork silent for {@link #SILENCE_LIMIT_MS} is killed as stuck,
 * and one whose output has ended is given {@link #EXIT_WAIT_MS} to exit.
 */
public final class JvmForkExecutor implements ForkExecutor {
    /** Lines of a fork's output kept for an error message. */
    static final int TAIL_LINES = 20;
    /**
     * How much of one fork JVM's own output goes into console.log: code that prints without end would fill the disk. Past
     * it, lines are counted and dropped, and the fork's last {@value #TAIL_LINES} close its part of the log, with how
     * much was dropped.
     */
    static final long CONSOLE_LOG_CAP_BYTES = 16L * 1024 * 1024;
    /** How long a fork may print nothing at all (its watchdog's heartbeat included) before it is killed as stuck. */
    static final long SILENCE_LIMIT_MS = 60_000;
    /** How long a fork whose output has ended may take to exit before it is killed. */
    static final long EXIT_WAIT_MS = 30_000;

    private final String mainClass;
    private final String jvmArgs;
    private final Map<String, String> environment;
    private final PrintStream echo;
    private final java.util.function.Supplier<String> cpus;

    /**
     * @param mainClass the fork's main class ({@code io.inferbench.jmh.ForkJvmMain})
     * @param jvmArgs   extra JVM arguments for every fork ({@code -Dbench.jvmArgs})
     * @param environment variables added to each fork's environment (the allocator's, {@link MallocPolicy}; the
     *                    engines' own, {@link io.inferbench.engine.EngineProvider#measuringEnvironment})
     * @param echo      where to echo the forks' own output too, or null
     */
    public JvmForkExecutor(String mainClass, String jvmArgs, Map<String, String> environment, PrintStream echo) {
        this(mainClass, jvmArgs, environment, echo, null);
    }

    private JvmForkExecutor(String mainClass, String jvmArgs, Map<String, String> environment, PrintStream echo,
                            java.util.function.Supplier<String> cpus) {
        this.mainClass = mainClass;
        this.jvmArgs = jvmArgs;
        this.environment = Map.copyOf(environment);
        this.echo = echo;
        this.cpus = cpus;
    }

    @Override
    public ForkExecutor pinned(java.util.function.Supplier<String> pinTo) {
        return new JvmForkExecutor(mainClass, jvmArgs, environment, echo, pinTo);
    }

    /** The fork's command line, its temporary folder {@code tmpDir}. */
    List<String> command(Path planFile, Path tmpDir) {
        // JMH would otherwise probe for compiler blackholes by starting two more JVMs (-version) at every fork JVM's start
        // (docs/findings.md, "JMH's blackhole probe"). The one value sunk per phase is a checksum of every pass's outputs,
        // read inside the timed region (ForkJvmMain): how JMH sinks it changes nothing measured.
        List<String> java = javaCommand(jvmArgs, List.of("-Djmh.blackhole.autoDetect=false", "-Djava.io.tmpdir=" + tmpDir),
                mainClass, List.of(planFile.toAbsolutePath().toString()));
        String pin = cpus == null ? null : cpus.get();
        if (pin == null) {
            return java;
        }
        // Pinned before the JVM starts, so every thread it will have (the engine's, the JIT's, the collector's) is
        // confined to these cores, and the JVM sizes its pools to them.
        List<String> pinned = new ArrayList<>(List.of("taskset", "-c", pin));
        pinned.addAll(java);
        return pinned;
    }

    /**
     * Starts {@code java} once with the fork JVMs' options ({@code -Dbench.jvmArgs}) and {@code -version}, before anything
     * is measured: options the JVM refuses ({@code -Xmx1k}, an unknown {@code -XX} flag) would otherwise fail every cell
     * as a finding about the code it ran.
     *
     * @throws BenchmarkException with the JVM's own message, when it does not start
     */
    public static void checkJvmArgs(String jvmArgs) {
        if (jvmArgs == null || jvmArgs.isBlank()) {
            return;
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(jvmArgs.trim().split("\\s+")));
        command.add("-version");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new BenchmarkException("A JVM with -Dbench.jvmArgs=" + jvmArgs.trim() + " did not start in 60 s: check "
                        + "the options");
            }
            if (process.exitValue() != 0) {
                throw new BenchmarkException("The fork JVMs' options -Dbench.jvmArgs=" + jvmArgs.trim() + " are refused by "
                        + "the JVM (exit code " + process.exitValue() + "): " + io.inferbench.Text.shorten(output.strip()
                        .replace(System.lineSeparator(), " "), 400) + ". Fix or drop them (java -version with them must start)");
            }
        } catch (java.io.IOException e) {
            throw new BenchmarkException("Could not start a JVM to try -Dbench.jvmArgs=" + jvmArgs.trim() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchmarkException("Interrupted while trying -Dbench.jvmArgs", e);
        }
    }

    /**
     * A fresh JVM's command line, as every measuring JVM is started: this JVM's {@code java}, headless, {@code flags},
     * the fork JVM options ({@code -Dbench.jvmArgs}), this JVM's class path, then {@code mainClass} and its arguments.
     */
    public static List<String> javaCommand(String jvmArgs, List<String> flags, String mainClass, List<String> args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Djava.awt.headless=true");
        command.addAll(flags);
        if (jvmArgs != null && !jvmArgs.isBlank()) {
            command.addAll(Arrays.asList(jvmArgs.trim().split("\\s+")));
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    @Override
    public ForkExit run(ForkPlan plan, Path planFile, Path consoleLog, Listener listener)
            throws IOException, InterruptedException {
        long launchEpochMs = System.currentTimeMillis();
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command(planFile, runTemporaryDir(consoleLog)))
                    .redirectErrorStream(true);
            builder.environment().putAll(environment);
            process = builder.start();
        } catch (IOException e) {
            throw new BenchmarkException("Could not start a fork JVM (" + e.getMessage() + "): check -Dbench.jvmArgs", e);
        }
        Thread stop = new Thread(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }, "inferbench-stop-fork");
        Runtime.getRuntime().addShutdownHook(stop);
        SilenceLimit silence = new SilenceLimit(process, SILENCE_LIMIT_MS);
        Deque<String> tail = new ArrayDeque<>();
        boolean readToEnd = false;
        long written = 0;
        long droppedLines = 0;
        long droppedChars = 0;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             Writer log = Files.newBufferedWriter(consoleLog, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                     StandardOpenOption.APPEND)) {
            String line;
            while ((line = readLine(reader, silence)) != null) {
                silence.heard();
                if (line.endsWith(ForkEvent.ALIVE)) {
                    // The heartbeat, maybe after a line JMH had begun; only that beginning is kept.
                    line = line.substring(0, line.length() - ForkEvent.ALIVE.length());
                    if (line.isBlank()) {
                        continue;
                    }
                }
                ForkEvent event = ForkEvent.parse(line);
                if (event != null && silence.endIfPaused(process)) {
                    // The fork was stopped from outside: what it reports now (most likely the end of the cell it was
                    // measuring) holds the pause, and is not passed on; the sweep measures that cell again.
                    log.write("[inferbench] " + silence.paused() + System.lineSeparator());
                    readToEnd = true;
                    break;
                }
                if (event != null) {
                    log.flush();
                    if (listener.on(event) == Next.STOP) {
                        log.write("[inferbench] the sweep stopped this fork JVM (its reason is the line before)" + System.lineSeparator());
                        process.destroyForcibly();
                        readToEnd = true;
                        break;
                    }
                    line = line.substring(0, line.indexOf(ForkEvent.PREFIX));
                    if (line.isBlank()) {
                        continue;
                    }
                }
                if (written < CONSOLE_LOG_CAP_BYTES) {
                    log.write(line);
                    log.write(System.lineSeparator());
                    written += line.length() + 1;
                    if (echo != null) {
                        echo.println(line);
                    }
                } else {
                    droppedLines++;
                    droppedChars += line.length() + 1;
                }
                tail.addLast(line);
                if (tail.size() > TAIL_LINES) {
                    tail.removeFirst();
                }
            }
            if (droppedLines > 0) {
                log.write(String.format(java.util.Locale.ROOT, "[inferbench] this fork JVM printed %d more line(s) (%.1f MiB) "
                        + "past console.log's cap of %d MiB a fork JVM; they were dropped, all but its last %d, which follow"
                        + "%n", droppedLines, droppedChars / 1048576.0, CONSOLE_LOG_CAP_BYTES / 1048576, TAIL_LINES));
                for (String kept : tail) {
                    log.write(kept);
                    log.write(System.lineSeparator());
                }
            }
            readToEnd = true;
        } finally {
            silence.close();
            if (!readToEnd) {
                process.destroyForcibly();
            }
        }
        // Its output has ended; a JVM that does not exit soon after (a native thread holding it) is ended.
        if (!process.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(EXIT_WAIT_MS, TimeUnit.MILLISECONDS);
        }
        int code = process.isAlive() ? -1 : process.exitValue();
        int children = silence.endChildren(process);
        if (children > 0) {
            try (Writer log = Files.newBufferedWriter(consoleLog, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND)) {
                log.write("[inferbench] the fork JVM left " + children + " process(es) it started running; the sweep ended "
                        + "them" + System.lineSeparator());
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(stop);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already stopping; the fork has ended anyway
        }
        return new ForkExit(process.pid(), code, launchEpochMs, String.join(System.lineSeparator(), tail),
                silence.fired() ? String.format(java.util.Locale.ROOT, "it printed nothing for %d s, not even its "
                        + "watchdog's heartbeat: the JVM was stuck (out of memory in every thread, say), and the "
                        + "sweep killed it", SILENCE_LIMIT_MS / 1000) : null, silence.paused());
    }

    /**
     * The fork's next line; null at its end, and also when the monitor ended the fork (as stuck, or after a pause from
     * outside): destroying a process closes its streams under the reader, which is the end of its output, not a failure.
     */
    private static String readLine(BufferedReader reader, SilenceLimit silence) throws IOException {
        try {
            return reader.readLine();
        } catch (IOException e) {
            if (silence.fired() || silence.paused() != null) {
                return null;
            }
            throw e;
        }
    }

    /**
     * The run's own temporary folder for its fork JVMs ({@code java.io.tmpdir}), beside its {@code console.log}: JMH
     * takes a lock file there, so two runs on one machine (two checkouts, two CI jobs on one runner) each hold their own
     * instead of the second failing on the first's; and what the engines extract there goes with the run.
     */
    static Path runTemporaryDir(Path consoleLog) throws IOException {
        return Files.createDirectories(consoleLog.toAbsolutePath().resolveSibling("tmp"));
    }

    /**
     * Kills a fork that has printed nothing for {@code limitMs}: its {@link Heartbeat} beats every
     * {@link Heartbeat#EVERY_MS}, so silence means the whole JVM is stuck, which no watchdog inside it can
     * report. A fork that is silent because it was stopped from outside ({@code SIGSTOP}, a debugger, a job control's
     * Ctrl-Z: state {@code T} in {@code /proc/PID/stat}) is not stuck, and is left alone while stopped; once it goes on,
     * it is ended at once, since the cell it measured holds the pause, and the sweep measures that cell again in a fresh
     * JVM ({@link KilledRestart}), as for a fork killed from outside. One daemon thread per fork, asleep between looks.
     */
    private static final class SilenceLimit implements AutoCloseable {
        private final Thread thread;
        private volatile long lastNs = System.nanoTime();
        private volatile boolean fired;
        private volatile boolean closed;
        private volatile String paused;
        /** When the fork was first seen stopped from outside; 0 while it has not been. */
        private volatile long stoppedSinceNs;
        /** Every process the fork started, as seen while it ran: ended with it, however it ends. */
        private final java.util.Set<ProcessHandle> children = java.util.concurrent.ConcurrentHashMap.newKeySet();

        SilenceLimit(Process process, long limitMs) {
            thread = new Thread(() -> {
                while (!closed) {
                    process.descendants().forEach(children::add);
                    try {
                        Thread.sleep(stoppedSinceNs != 0 ? 100 : 500);
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (closed) {
                        return;
                    }
                    boolean stopped = stoppedFromOutside(process.pid());
                    if (stopped) {
                        if (stoppedSinceNs == 0) {
                            stoppedSinceNs = System.nanoTime();
                        }
                        lastNs = System.nanoTime();
                        continue;
                    }
                    if (stoppedSinceNs != 0) {
                        endIfPaused(process);
                        return;
                    }
                    if (System.nanoTime() - lastNs > limitMs * 1_000_000L) {
                        fired = true;
                        process.destroyForcibly();
                        return;
                    }
                }
            }, "inferbench-fork-silence");
            thread.setDaemon(true);
            thread.start();
        }

        void heard() {
            lastNs = System.nanoTime();
        }

        boolean fired() {
            return fired;
        }

        /**
         * Ends every process the fork started that is still running (a server, a {@code sleep} the user's code left):
         * nothing a fork started outlives it. A process whose parent left it before a look (a double fork) is not seen.
         *
         * @return how many were ended
         */
        int endChildren(Process process) {
            process.descendants().forEach(children::add);
            int ended = 0;
            for (ProcessHandle child : children) {
                if (child.isAlive() && child.destroyForcibly()) {
                    ended++;
                }
            }
            return ended;
        }

        /**
         * Ends the fork if it has been seen stopped from outside since it started: once it goes on, what it measured
         * holds the pause. Returns whether it did.
         */
        synchronized boolean endIfPaused(Process process) {
            long since = stoppedSinceNs;
            if (since == 0) {
                return false;
            }
            if (paused == null) {
                paused = String.format(java.util.Locale.ROOT, "it was stopped from outside (SIGSTOP, or a debugger) for "
                        + "about %.0f s and then went on: what it measured meanwhile holds the pause, so the sweep ended it",
                        (System.nanoTime() - since) / 1e9);
            }
            process.destroyForcibly();
            return true;
        }

        /** Why the sweep ended a fork that had been stopped from outside and went on; null when it was not. */
        String paused() {
            return paused;
        }

        @Override
        public void close() {
            closed = true;
            thread.interrupt();
        }
    }

    /**
     * Whether a process is stopped by a signal or a tracer (state {@code T} or {@code t} in {@code /proc/PID/stat});
     * false where there is no {@code /proc} (not Linux), or the process is gone.
     */
    static boolean stoppedFromOutside(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            int close = stat.lastIndexOf(')');
            return close >= 0 && close + 2 < stat.length() && (stat.charAt(close + 2) == 'T' || stat.charAt(close + 2) == 't');
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
