package io.inferbench.cli;

import io.inferbench.BenchmarkException;
import io.inferbench.runner.TestOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 54, item 8: settings that were taken silently are refused, with the fix. */
class BadSettingsTest {
    @TempDir
    Path dir;

    private Properties with(String... keyValues) {
        Properties p = TestOptions.minimal(dir.resolve("results"));
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    /** {@code -Dbnech.batch=4} would run the default batches: the prefix's typo is named, with the property meant. */
    @Test
    void aMisspeltPrefixIsRefusedWithTheSettingMeant() {
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> PropertyNames.checkKnown(with("bnech.batch", "4")));
        assertTrue(e.getMessage().contains("-Dbnech.batch (did you mean -Dbench.batch?)"), e.getMessage());
        assertEquals("bench.batch", PropertyNames.misspeltPrefix("bech.batch"));
        assertEquals("bench.seq", PropertyNames.misspeltPrefix("benhc.seq"));
    }

    /** Maven's and the JVM's own properties are never taken for a typo of ours. */
    @Test
    void otherToolsPropertiesAreLeftAlone() {
        for (String name : new String[] {"java.home", "maven.repo.local", "user.dir", "exec.args", "bench.batch", "bechmark.x"}) {
            assertNull(PropertyNames.misspeltPrefix(name), name);
        }
        assertDoesNotThrow(() -> PropertyNames.checkKnown(with("maven.test.skip", "true", "skipTests", "true")));
    }

    /**
     * Issue 65: a value the run refuses is refused before it waits for another run to finish measuring, not after
     * (the machine's lock is held here while the run is asked to start).
     */
    @Test
    void aBadValueIsRefusedWithoutWaitingForTheMachine() throws Exception {
        Path locks = java.nio.file.Files.createDirectories(dir.resolve("locks"));
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process other = new ProcessBuilder(javaBin, "-cp", classpath, "io.inferbench.runner.MachineLockTest$Holder",
                locks.toString()).redirectErrorStream(true).start();
        try {
            java.io.BufferedReader said = new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream(),
                    java.nio.charset.StandardCharsets.UTF_8));
            String line;
            while ((line = said.readLine()) != null && !line.equals("held")) {
                // its start-up lines
            }
            assertEquals("held", line, "another run holds the machine");
            java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
            Properties bad = with("bench.seq", "99999999999", "java.io.tmpdir", locks.toString());
            BenchmarkException e = assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> assertThrows(
                    BenchmarkException.class, () -> SweepCommand.run(bad, new java.io.PrintStream(console))));
            assertTrue(e.getMessage().contains("bench.seq"), e.getMessage());
            assertTrue(!console.toString().contains("waiting"), "refused, not waiting: " + console);
        } finally {
            other.getOutputStream().close();
            other.destroy();
            other.waitFor();
        }
    }

    /** {@code 1,,2} is a value lost in typing, not the list 1, 2. */
    @Test
    void anEmptyListItemIsRefused() {
        BenchmarkException e = assertThrows(BenchmarkException.class, () -> Settings.sweep(with("bench.batch", "1,,2")));
        assertTrue(e.getMessage().contains("-Dbench.batch=1,,2 has an empty item"), e.getMessage());
        assertTrue(e.getMessage().contains("-Dbench.batch=1,2"), "the fix: " + e.getMessage());
        assertThrows(BenchmarkException.class, () -> Settings.sweep(with("bench.seq", "64,")));
    }

    @Test
    void theCallTimeoutIsPositiveOrAuto() {
        assertNull(Settings.sweep(with()).rules().callTimeoutSeconds(), "auto by default");
        assertEquals(5.0, Settings.sweep(with("bench.callTimeoutSeconds", "5")).rules().callTimeoutSeconds());
        BenchmarkException e = assertThrows(BenchmarkException.class,
                () -> Settings.sweep(with("bench.callTimeoutSeconds", "0")));
        assertTrue(e.getMessage().contains("or `auto`"), e.getMessage());
    }
}
