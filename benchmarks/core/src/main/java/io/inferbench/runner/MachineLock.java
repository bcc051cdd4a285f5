package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.Text;
import io.inferbench.engine.EngineSetting;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;

/**
 * One inferbench run measuring on a machine at a time. Two runs at once each measure a machine the other is using: two
 * {@code mvn verify} side by side both read a p50 about twice a solo run's, and both exited 0. So a run takes this
 * machine-wide lock (an OS file lock on {@value #FILE_NAME} in the system's temporary folder, which the OS releases
 * when the process ends, however it ends) before it measures, and by default waits, saying for whom, while another run
 * holds it. {@code -Dbench.concurrent=allow} runs anyway, and the run records that it measured beside another run
 * ({@link #besideAnotherRun}), which its report says first.
 *
 * <p>The lock is the sweep JVM's: the fork JVMs it starts measure under it. Tests that run forks in their own JVM do
 * not take it.
 */
public final class MachineLock implements AutoCloseable {
    static final String FILE_NAME = "inferbench-measuring.lock";
    /** Beside the lock: who holds it, for the line a waiting run prints. */
    static final String OWNER_NAME = "inferbench-measuring.owner";

    /** What {@code -Dbench.concurrent} asks for: each constant by its lower-case name ({@link EngineSetting#choice}). */
    public enum Mode {
        /** Wait for the other run to finish measuring (the default). */
        WAIT,
        /** Measure anyway, and say so in the run. */
        ALLOW;

        /** The mode a {@code -Dbench.concurrent} value names. */
        public static Mode named(String value) {
            return EngineSetting.choice(Mode.class, "bench.concurrent", value, "wait while another inferbench run measures "
                    + "on this machine, or allow measuring beside it");
        }
    }

    /**
     * The lock this JVM holds, if any. Only one channel per JVM may open the file: on Linux closing any channel of a file
     * releases every lock the process holds on it, so a run inside a run opens nothing.
     */
    private static MachineLock held;

    private final FileChannel channel;
    private final FileLock lock;
    private final String besideAnotherRun;

    private MachineLock(FileChannel channel, FileLock lock, String besideAnotherRun) {
        this.channel = channel;
        this.lock = lock;
        this.besideAnotherRun = besideAnotherRun;
    }

    /**
     * Takes the lock in {@code folder} (the system's temporary folder in a run), waiting while another process holds
     * it ({@link Mode#WAIT}), or not ({@link Mode#ALLOW}, when the run is then {@link #besideAnotherRun}).
     *
     * @param what  this run, for the line another waiting run prints: its results folder
     * @param poll  how often to try again while waiting
     */
    public static synchronized MachineLock acquire(Path folder, Mode mode, String what, PrintStream console, Duration poll) {
        if (held != null) {
            return new MachineLock(null, null, held.besideAnotherRun);
        }
        Path file = folder.resolve(FILE_NAME);
        FileChannel channel;
        try {
            Files.createDirectories(folder);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            console.println("[inferbench] could not open the machine's measuring lock " + file + " (" + e + "): this run "
                    + "cannot tell whether another inferbench run measures beside it");
            return new MachineLock(null, null, null);
        }
        long startedNs = System.nanoTime();
        long lastSaidNs = 0;
        while (true) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException | IOException e) {
                console.println("[inferbench] could not take the machine's measuring lock " + file + " (" + e + ")");
                return new MachineLock(channel, null, null);
            }
            if (lock != null) {
                writeOwner(folder, what);
                if (lastSaidNs != 0) {
                    console.println(Text.f("[inferbench] the other run is done measuring: this one starts, after waiting %.0f s",
                            (System.nanoTime() - startedNs) / 1e9));
                }
                held = new MachineLock(channel, lock, null);
                return held;
            }
            String owner = owner(folder);
            if (mode == Mode.ALLOW) {
                console.println("[inferbench] another inferbench run is measuring on this machine (" + owner + "): this one "
                        + "measures beside it (-Dbench.concurrent=allow), so each reads a machine the other is using; run.json "
                        + "and the report say so first");
                held = new MachineLock(channel, null, owner);
                return held;
            }
            long now = System.nanoTime();
            if (lastSaidNs == 0 || now - lastSaidNs > Duration.ofMinutes(1).toNanos()) {
                console.println(Text.f("[inferbench] waiting for another inferbench run to finish measuring on this machine "
                        + "(%s; waited %.0f s): two runs at once each read about twice their solo latency. "
                        + "-Dbench.concurrent=allow measures anyway", owner, (now - startedNs) / 1e9));
                lastSaidNs = now;
            }
            try {
                Thread.sleep(poll.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close(channel);
                throw new BenchmarkException("interrupted while waiting for another inferbench run to finish measuring", e);
            }
        }
    }

    /** Who measures beside this run, when it measured anyway ({@link Mode#ALLOW}); null when it measured alone. */
    public String besideAnotherRun() {
        return besideAnotherRun;
    }

    private static void writeOwner(Path folder, String what) {
        String line = "pid " + ProcessHandle.current().pid() + ", started " + Instant.now() + ", " + what;
        try {
            Files.writeString(folder.resolve(OWNER_NAME), line, StandardCharsets.UTF_8);
        } catch (IOException e) {
            // who holds the lock is only for the other run's line
        }
    }

    /** Who holds the lock, as it wrote itself down; what is known when it wrote nothing. */
    static String owner(Path folder) {
        try {
            String line = Files.readString(folder.resolve(OWNER_NAME), StandardCharsets.UTF_8).strip();
            return line.isEmpty() ? "a run that did not say who it is" : line;
        } catch (IOException e) {
            return "a run that did not say who it is";
        }
    }

    /** Releases the lock; idempotent. */
    @Override
    public void close() {
        synchronized (MachineLock.class) {
            if (held == this) {
                held = null;
            }
        }
        if (lock != null && lock.isValid()) {
            try {
                lock.release();
            } catch (IOException e) {
                // the channel's close below releases it too
            }
        }
        close(channel);
    }

    private static void close(FileChannel channel) {
        if (channel != null && channel.isOpen()) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing held any more
            }
        }
    }
}
