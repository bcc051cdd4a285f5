package io.inferbench.runner;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One run measuring on a machine at a time: another process holding the lock makes a run wait, saying for whom, until it
 * is gone; {@code allow} measures beside it and says so. The other run is a real second JVM, as two {@code mvn verify}
 * are; the test asserts on who held the lock when, never on how long anything took.
 */
class MachineLockTest {
    @TempDir
    Path dir;

    /** The other run: takes the lock in the folder it is given, says so, and holds it until its stdin closes. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            try (MachineLock lock = MachineLock.acquire(Path.of(args[0]), MachineLock.Mode.WAIT, "results in /other",
                    System.out, Duration.ofMillis(50))) {
                System.out.println("held");
                System.out.flush();
                while (System.in.read() >= 0) {
                    // hold until the test closes our stdin
                }
            }
        }
    }

    private Process holder() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process process = new ProcessBuilder(List.of(java, "-cp", classpath, Holder.class.getName(), dir.toString()))
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals("held")) {
            // its start-up lines
        }
        assertEquals("held", line, "the other run took the lock");
        return process;
    }

    @Test
    void aRunAloneTakesTheLockAndMeasuresAlone() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        try (MachineLock lock = MachineLock.acquire(dir, MachineLock.Mode.WAIT, "results in /here",
                new PrintStream(console, true, StandardCharsets.UTF_8), Duration.ofMillis(50))) {
            assertNull(lock.besideAnotherRun());
            try (MachineLock inner = MachineLock.acquire(dir, MachineLock.Mode.WAIT, "an A/B's second subject",
                    new PrintStream(console, true, StandardCharsets.UTF_8), Duration.ofMillis(50))) {
                assertNull(inner.besideAnotherRun(), "a run inside a run measures under the outer run's lock");
            }
        }
        assertEquals("", console.toString(StandardCharsets.UTF_8));
    }

    @Test
    void allowMeasuresBesideAnotherRunAndSaysWhose() throws Exception {
        Process other = holder();
        try {
            ByteArrayOutputStream console = new ByteArrayOutputStream();
            try (MachineLock lock = MachineLock.acquire(dir, MachineLock.Mode.ALLOW, "results in /here",
                    new PrintStream(console, true, StandardCharsets.UTF_8), Duration.ofMillis(50))) {
                assertTrue(lock.besideAnotherRun() != null && lock.besideAnotherRun().contains("pid " + other.pid())
                        && lock.besideAnotherRun().contains("results in /other"), lock.besideAnotherRun());
            }
            assertTrue(console.toString(StandardCharsets.UTF_8).contains("measures beside it (-Dbench.concurrent=allow)"));
        } finally {
            other.getOutputStream().close();
            other.waitFor();
        }
    }

    @Test
    void waitWaitsUntilTheOtherRunHasLetGo() throws Exception {
        Process other = holder();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        Thread release = new Thread(() -> {
            try {
                while (!console.toString(StandardCharsets.UTF_8).contains("waiting for another inferbench run")) {
                    Thread.sleep(20);
                }
                other.getOutputStream().close(); // the other run ends
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        release.start();
        try (MachineLock lock = MachineLock.acquire(dir, MachineLock.Mode.WAIT, "results in /here", out, Duration.ofMillis(50))) {
            assertFalse(other.isAlive() && !other.waitFor(5, java.util.concurrent.TimeUnit.SECONDS),
                    "the lock was taken only once the other run had let go");
            assertNull(lock.besideAnotherRun());
        }
        release.join();
        String said = console.toString(StandardCharsets.UTF_8);
        assertTrue(said.contains("waiting for another inferbench run to finish measuring on this machine (pid " + other.pid()),
                said);
        assertTrue(said.contains("-Dbench.concurrent=allow measures anyway") && said.contains("the other run is done measuring"),
                said);
        assertTrue(new File(dir.toFile(), MachineLock.FILE_NAME).exists());
    }
}
