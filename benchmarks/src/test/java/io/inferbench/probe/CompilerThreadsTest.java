package io.inferbench.probe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compiler threads read from a fake {@code /proc/self/task}, and the wait until they are idle. */
class CompilerThreadsTest {
    /** Only the compiler threads count: their first schedstat field (ns on the CPU), found by name. */
    @Test
    void compilerThreadsAreFoundByName(@TempDir Path tasks) throws IOException {
        task(tasks, "101", "C2 CompilerThre\n", "123456789 1000 20\n");
        task(tasks, "102", "C1 CompilerThre\n", "1000 5 1\n");
        task(tasks, "103", "java\n", "999999999999 1 1\n");
        Files.createDirectories(tasks.resolve("104"));
        assertEquals(123456789L + 1000L, new CompilerThreads(tasks).cpuNs());
        assertEquals(-1, new CompilerThreads(tasks.resolve("absent")).cpuNs());
    }

    /** Idle compiler threads end the wait after one poll; unreadable ones do not make it wait at all. */
    @Test
    void drainEndsWhenTheCompilerThreadsAreIdle(@TempDir Path tasks) throws IOException {
        task(tasks, "101", "C2 CompilerThre\n", "5000 1 1\n");
        double waited = new CompilerThreads(tasks).awaitIdle(null, 5, 10_000);
        assertTrue(waited >= 5 && waited < 5_000, "waited " + waited + " ms");
        assertEquals(0, new CompilerThreads(tasks.resolve("absent")).awaitIdle(null, 5, 10_000));
    }

    /**
     * A reading taken a poll or more ago (at the warm-up's end) is the first poll: idle threads end the wait at the first
     * read, without sleeping a poll again. A reading that differs from now means a compile ran since: it waits a poll.
     */
    @Test
    void aReadingFromTheWarmupsEndCountsAsTheFirstPoll(@TempDir Path tasks) throws IOException {
        task(tasks, "101", "C2 CompilerThre\n", "5000 1 1\n");
        long longAgo = System.nanoTime() - 60_000_000_000L;
        double idle = new CompilerThreads(tasks).awaitIdle(new CompilerThreads.Reading(5000, longAgo), 30_000, 60_000);
        assertTrue(idle < 20_000, "idle compilers since the reading: no poll waited, but waited " + idle + " ms");
        double busy = new CompilerThreads(tasks).awaitIdle(new CompilerThreads.Reading(4000, longAgo), 50, 60_000);
        assertTrue(busy >= 50, "a compile ran since the reading: one more poll, but waited " + busy + " ms");
    }

    /**
     * A thread's name is read once and remembered, so a poll reads only the compiler threads' time; forget() looks at
     * every name again, and a compiler thread that ended drops out.
     */
    @Test
    void compilerThreadsAreRememberedUntilForgotten(@TempDir Path tasks) throws IOException {
        task(tasks, "101", "C2 CompilerThre\n", "7000 1 1\n");
        task(tasks, "102", "java\n", "5 1 1\n");
        CompilerThreads threads = new CompilerThreads(tasks);
        assertEquals(7000, threads.cpuNs());
        Files.writeString(tasks.resolve("101/comm"), "renamed\n");
        Files.writeString(tasks.resolve("102/comm"), "C1 CompilerThre\n");
        assertEquals(7000, threads.cpuNs(), "names are remembered, not read again");
        threads.forget();
        assertEquals(5, threads.cpuNs(), "after forget, every name is read again");
        Files.delete(tasks.resolve("102/schedstat"));
        Files.delete(tasks.resolve("102/comm"));
        Files.delete(tasks.resolve("102"));
        assertEquals(0, threads.cpuNs(), "a compiler thread that ended has no time to wait for");
    }

    private static void task(Path tasks, String tid, String comm, String schedstat) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(dir.resolve("comm"), comm);
        Files.writeString(dir.resolve("schedstat"), schedstat);
    }

    /** This JVM's own threads: HotSpot's compiler threads are there on Linux, and their time only grows. */
    @Test
    void thisJvmsCompilerThreadsAreRead() {
        CompilerThreads.Reading first = CompilerThreads.ofThisJvm().read();
        CompilerThreads.ofThisJvm().prime();
        CompilerThreads.Reading second = CompilerThreads.ofThisJvm().read();
        if (first.cpuNs() >= 0) {
            assertTrue(first.cpuNs() > 0, "a JVM that ran this test has compiled something");
            assertTrue(second.cpuNs() >= first.cpuNs());
            assertTrue(second.atNs() > first.atNs());
        }
    }
}
