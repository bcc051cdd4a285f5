package io.inferbench.measure;

import io.inferbench.BenchmarkException;

import javax.management.JMException;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * While open, this JVM's JIT compiles in the foreground: a thread that makes a method hot waits for its compiled code
 * instead of running on while a compiler thread works beside it. Opening pushes a compiler directive that matches every
 * method with {@code BackgroundCompilation: false} (HotSpot's compiler control, JEP 165, through the
 * {@code Compiler.directives_add} diagnostic command that {@code jcmd} also uses); closing pops it, and compiles go back
 * to the background. The directive applies to compiles requested while it is on the stack; one already queued in the
 * background finishes there.
 *
 * <p><b>Hazards.</b> Directives form one stack per JVM, so windows must not overlap: open one, close it, then open the
 * next (a cell's warm-up to the end of its measurement). {@link #close()} is idempotent; it pops only if this window
 * pushed. A JVM without HotSpot's diagnostic commands refuses at {@link #open()}, with an error that names the way out.
 *
 * <p><b>Compiles already under way.</b> A compile requested before the window (by the code between cells) still runs in
 * the background, and the JVM's compile-time counter ({@code CompilationMXBean}) only grows when a compile ends, so a
 * long C2 compile in progress is invisible to the warm-up rule's JIT check: one ran 100 ms of CPU into a measurement on
 * the build machine. So before the measurement {@link #awaitIdleCompilers()} waits, without running anything, until the
 * compiler threads are idle: until their CPU time ({@code /proc/self/task/TID/schedstat}, threads named
 * {@code C1 CompilerThre*} or {@code C2 CompilerThre*}) stops advancing for {@value #DRAIN_POLL_MS} ms, for at most
 * {@value #DRAIN_CAP_MS} ms. Where {@code /proc} is not readable (not Linux), it does not wait. It waits there, not when
 * the window opens, so that it also covers what JMH's switch from warm-up to measurement asks to compile, and so that
 * such compiles first overlap the warm-up, which is not measured. On the build machine the wait was 35 ms per cell on
 * average (at most 0.4 s), about 5 s of a default sweep; waiting at the window's opening cost the same.
 */
public final class ForegroundJit implements AutoCloseable {
    private static final String DIRECTIVE = "[{ match: \"*.*\", BackgroundCompilation: false }]\n";
    private static final String[] STRING_ARRAY = {String[].class.getName()};
    private static Path directiveFile;

    private boolean open;

    private ForegroundJit() {
    }

    /** Pushes the directive: from now on, until {@link #close()}, this JVM compiles in the foreground. */
    public static ForegroundJit open() {
        try {
            ForegroundJit window = new ForegroundJit();
            Object said = diagnosticCommand("compilerDirectivesAdd", file().toString());
            if (said == null || !said.toString().contains("1 compiler directives added")) {
                throw new BenchmarkException("The JVM did not take the compiler directive that makes it compile in the "
                        + "foreground (it said: " + said + "); run with -Dbench.jitCompilation=background");
            }
            window.open = true;
            return window;
        } catch (JMException | IOException e) {
            throw new BenchmarkException("This JVM cannot be told to compile in the foreground (" + e.getMessage()
                    + "): it needs HotSpot's Compiler.directives_add diagnostic command; run with "
                    + "-Dbench.jitCompilation=background", e);
        }
    }

    /**
     * Waits until no compiler thread is working (a compile requested before the window, still in the background); returns
     * the wait in ms.
     */
    public double awaitIdleCompilers() {
        return drain(TASKS, DRAIN_POLL_MS, DRAIN_CAP_MS);
    }

    /** Whether this window's directive is on the stack. */
    public boolean isOpen() {
        return open;
    }

    /** Pops the directive this window pushed; compiles go back to the background. Idempotent. */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        open = false;
        try {
            diagnosticCommand("compilerDirectivesRemove");
        } catch (JMException e) {
            throw new BenchmarkException("Could not take back the foreground-compilation directive (" + e.getMessage()
                    + "); run with -Dbench.jitCompilation=background", e);
        }
    }

    /** What HotSpot says of its directive stack, top first ({@code Compiler.directives_print}). */
    public static String printStack() {
        try {
            return String.valueOf(diagnosticCommand("compilerDirectivesPrint"));
        } catch (JMException e) {
            throw new BenchmarkException("Could not read the JVM's compiler directives: " + e.getMessage(), e);
        }
    }

    /** Runs one of HotSpot's diagnostic commands ({@code jcmd}'s, by its MBean operation name) with its arguments. */
    private static Object diagnosticCommand(String operation, String... arguments) throws JMException {
        return ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                operation, new Object[] {arguments}, STRING_ARRAY);
    }

    static final long DRAIN_POLL_MS = 10;
    static final long DRAIN_CAP_MS = 2000;
    private static final Path TASKS = Path.of("/proc/self/task");

    /**
     * Waits until the compiler threads' CPU time stops advancing over one poll, at most {@code capMs}; returns the wait in
     * ms. Returns at once where their time cannot be read.
     */
    static double drain(Path tasks, long pollMs, long capMs) {
        long start = System.nanoTime();
        long last = compilerCpuNs(tasks);
        if (last < 0) {
            return 0;
        }
        while ((System.nanoTime() - start) / 1_000_000 < capMs) {
            try {
                Thread.sleep(pollMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long now = compilerCpuNs(tasks);
            if (now == last) {
                break;
            }
            last = now;
        }
        return (System.nanoTime() - start) / 1e6;
    }

    /**
     * The CPU time of the JIT's compiler threads so far, in ns: the first field of each one's {@code schedstat}, found by
     * its {@code comm}; -1 where {@code /proc} cannot be read.
     */
    static long compilerCpuNs(Path tasks) {
        long sum = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                try {
                    String comm = Files.readString(task.resolve("comm"));
                    if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                        String stat = Files.readString(task.resolve("schedstat")).trim();
                        int space = stat.indexOf(' ');
                        sum += Long.parseLong(space < 0 ? stat : stat.substring(0, space));
                    }
                } catch (IOException | RuntimeException e) {
                    // a thread that ended between the listing and the read: no compile of its own to wait for
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return sum;
    }

    /** The directive, written once per JVM to a file the diagnostic command reads, deleted when the JVM exits. */
    private static synchronized Path file() throws IOException {
        if (directiveFile == null) {
            Path file = Files.createTempFile("inferbench-foreground-jit", ".json");
            file.toFile().deleteOnExit();
            Files.writeString(file, DIRECTIVE, StandardCharsets.UTF_8);
            directiveFile = file;
        }
        return directiveFile;
    }
}
