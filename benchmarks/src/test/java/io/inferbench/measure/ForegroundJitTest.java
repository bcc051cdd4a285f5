package io.inferbench.measure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The foreground window in this (HotSpot) JVM: HotSpot's own print of its directive stack says what the compiler will
 * do, so the test reads that rather than trusting the command's reply.
 */
class ForegroundJitTest {
    private static final Pattern BACKGROUND = Pattern.compile("BackgroundCompilation:(true|false)");

    /** How many directives are on the stack, and the top one's BackgroundCompilation for C2. */
    private static String top() {
        String stack = ForegroundJit.printStack();
        int c2 = stack.indexOf("c2 directives:");
        Matcher m = BACKGROUND.matcher(stack);
        assertTrue(c2 >= 0 && m.find(c2), stack);
        return m.group(1);
    }

    private static int directives() {
        return ForegroundJit.printStack().split("Directive:", -1).length - 1;
    }

    @Test
    void openCompilesInTheForegroundAndCloseGivesTheBackgroundBack() {
        int before = directives();
        assertEquals("true", top(), "HotSpot's default compiles in the background");
        ForegroundJit window = ForegroundJit.open();
        try {
            assertTrue(window.isOpen());
            assertEquals(before + 1, directives());
            assertEquals("false", top(), "while open, the top directive compiles in the foreground");
        } finally {
            window.close();
        }
        assertFalse(window.isOpen());
        assertEquals(before, directives());
        assertEquals("true", top());
    }

    @Test
    void closeIsIdempotentAndPopsOnlyWhatItPushed() {
        int before = directives();
        ForegroundJit first = ForegroundJit.open();
        first.close();
        first.close();
        assertEquals(before, directives(), "a second close pops nothing");
        ForegroundJit second = ForegroundJit.open();
        assertEquals(before + 1, directives());
        second.close();
        assertEquals(before, directives());
    }

    /** Only the compiler threads count: their first schedstat field (ns on the CPU), found by name. */
    @Test
    void compilerThreadsAreFoundByName(@TempDir Path tasks) throws IOException {
        task(tasks, "101", "C2 CompilerThre\n", "123456789 1000 20\n");
        task(tasks, "102", "C1 CompilerThre\n", "1000 5 1\n");
        task(tasks, "103", "java\n", "999999999999 1 1\n");
        Files.createDirectories(tasks.resolve("104"));
        assertEquals(123456789L + 1000L, ForegroundJit.compilerCpuNs(tasks));
        assertEquals(-1, ForegroundJit.compilerCpuNs(tasks.resolve("absent")));
    }

    /** Idle compiler threads end the wait after one poll; unreadable ones do not make it wait at all. */
    @Test
    void drainEndsWhenTheCompilerThreadsAreIdle(@TempDir Path tasks) throws IOException {
        task(tasks, "101", "C2 CompilerThre\n", "5000 1 1\n");
        double waited = ForegroundJit.drain(tasks, 5, 10_000);
        assertTrue(waited >= 5 && waited < 5_000, "waited " + waited + " ms");
        assertEquals(0, ForegroundJit.drain(tasks.resolve("absent"), 5, 10_000));
    }

    private static void task(Path tasks, String tid, String comm, String schedstat) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(dir.resolve("comm"), comm);
        Files.writeString(dir.resolve("schedstat"), schedstat);
    }
}
