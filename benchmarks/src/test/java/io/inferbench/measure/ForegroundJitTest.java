package io.inferbench.measure;

import org.junit.jupiter.api.Test;

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
            assertEquals(before + 1, directives());
            assertEquals("false", top(), "while open, the top directive compiles in the foreground");
        } finally {
            window.close();
        }
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
}
