package io.inferbench.measure;

import io.inferbench.BenchmarkException;
import io.inferbench.probe.CompilerThreads;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.ObjectName;

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
 * <p><b>Compiles already under way</b> in the background are invisible to the warm-up rule's JIT check until they end,
 * so before the measurement {@link #awaitIdleCompilers()} waits, running nothing, until the compiler threads are idle
 * ({@link CompilerThreads}), for at most {@value #DRAIN_CAP_MS} ms, counted from {@link #warmupEnded()}. Why there and
 * what it costs: docs/findings.md, "Compiler threads".
 */
public final class ForegroundJit implements AutoCloseable {
    private static final String DIRECTIVE = "[{ match: \"*.*\", BackgroundCompilation: false }]\n";
    private static final String[] STRING_ARRAY = {String[].class.getName()};
    private static Path directiveFile;

    static final long DRAIN_CAP_MS = 2000;

    private boolean open;
    /** The compiler threads' time when the warm-up ended ({@link #warmupEnded()}), or null. */
    private CompilerThreads.Reading warmupEnd;

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
        return CompilerThreads.ofThisJvm().awaitIdle(warmupEnd, DRAIN_CAP_MS);
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

    /**
     * Notes the compiler threads' CPU time as the warm-up ends, so that {@link #awaitIdleCompilers()} counts the time
     * since (JMH's switch to the measurement) as part of its first poll instead of adding a poll after it.
     */
    public void warmupEnded() {
        warmupEnd = CompilerThreads.ofThisJvm().read();
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
