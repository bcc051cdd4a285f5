package io.inferbench.sweep;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.inferbench.BenchmarkException;
import io.inferbench.ChildJvm;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fork JVMs' JIT option: added by default, never over the user's own, and taken by a real JVM. */
class JitCompilationTest {
    @Test
    void foregroundIsAddedToTheUsersOptions() {
        assertEquals("-Xmx4g -XX:-BackgroundCompilation", JitCompilation.FOREGROUND.forkJvmArgs("-Xmx4g"));
        assertEquals("-Xmx8g -XX:+UseParallelGC -XX:-BackgroundCompilation",
                JitCompilation.FOREGROUND.forkJvmArgs("  -Xmx8g   -XX:+UseParallelGC "));
        assertEquals("-XX:-BackgroundCompilation", JitCompilation.FOREGROUND.forkJvmArgs(""));
        assertEquals("-XX:-BackgroundCompilation", JitCompilation.FOREGROUND.forkJvmArgs(null));
    }

    @Test
    void optionsThatAlreadyDecideItAreKeptAsGiven() {
        assertEquals("-Xmx4g -Xbatch", JitCompilation.FOREGROUND.forkJvmArgs("-Xmx4g -Xbatch"));
        assertEquals("-XX:+BackgroundCompilation -Xmx4g", JitCompilation.FOREGROUND.forkJvmArgs("-XX:+BackgroundCompilation -Xmx4g"));
        assertEquals("-XX:-BackgroundCompilation", JitCompilation.FOREGROUND.forkJvmArgs("-XX:-BackgroundCompilation"));
        assertEquals("-Xmx4g -XX:-BackgroundCompilationX -XX:-BackgroundCompilation",
                JitCompilation.FOREGROUND.forkJvmArgs("-Xmx4g -XX:-BackgroundCompilationX"), "only the whole option decides");
    }

    @Test
    void backgroundAddsNothing() {
        assertEquals("-Xmx4g", JitCompilation.BACKGROUND.forkJvmArgs("-Xmx4g"));
        assertEquals("", JitCompilation.BACKGROUND.forkJvmArgs(null));
    }

    @Test
    void anUnknownValueNamesTheChoices() {
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> JitCompilation.parse("batch"));
        assertTrue(e.getMessage().contains("[foreground, background]"), e.getMessage());
        assertEquals(JitCompilation.BACKGROUND, JitCompilation.parse(" background "));
    }

    /** A JVM started with the default's options really compiles in the foreground; one without them does not. */
    @Test
    void aJvmStartedWithTheOptionsCompilesInTheForeground() throws Exception {
        List<String> foreground = Arrays.asList(JitCompilation.FOREGROUND.forkJvmArgs("-Xmx256m").split(" "));
        ChildJvm.Result child = ChildJvm.run(Probe.class.getName(), List.of(), foreground, Duration.ofSeconds(60));
        assertEquals(0, child.exitCode(), child.output());
        assertEquals("BackgroundCompilation=false", child.output().trim());

        List<String> background = Arrays.asList(JitCompilation.BACKGROUND.forkJvmArgs("-Xmx256m").split(" "));
        ChildJvm.Result plain = ChildJvm.run(Probe.class.getName(), List.of(), background, Duration.ofSeconds(60));
        assertEquals("BackgroundCompilation=true", plain.output().trim(), plain.output());
    }

    /** Prints the child JVM's {@code BackgroundCompilation}. */
    public static final class Probe {
        public static void main(String[] args) {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            System.out.println("BackgroundCompilation=" + hotspot.getVMOption("BackgroundCompilation").getValue());
        }
    }
}
