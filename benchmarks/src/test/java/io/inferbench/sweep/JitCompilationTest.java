package io.inferbench.sweep;

import io.inferbench.BenchmarkException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JIT setting's values; what {@code foreground} does to a JVM is {@code ForegroundJitTest}'s. */
class JitCompilationTest {
    @Test
    void theLabelsParseAndAnUnknownValueNamesTheChoices() {
        assertEquals(JitCompilation.FOREGROUND, JitCompilation.parse("foreground"));
        assertEquals(JitCompilation.BACKGROUND, JitCompilation.parse(" background "));
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> JitCompilation.parse("batch"));
        assertTrue(e.getMessage().contains("[foreground, background]") && e.getMessage().contains("-Dbench.jitCompilation=batch"),
                e.getMessage());
    }
}
