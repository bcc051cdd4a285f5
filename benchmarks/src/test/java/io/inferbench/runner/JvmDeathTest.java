package io.inferbench.runner;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 54: how a fork JVM ended is said by what happened to the process, never as a crash of inferbench. */
class JvmDeathTest {
    private static ForkExecutor.ForkExit exit(int code) {
        return new ForkExecutor.ForkExit(1, code, 0, "");
    }

    @Test
    void signalsAreNamedWithTheirLikelyCause() {
        assertTrue(JvmDeath.describe(exit(137)).contains("signal 9 (SIGKILL: killed from outside"), JvmDeath.describe(exit(137)));
        assertTrue(JvmDeath.describe(exit(137)).contains("out-of-memory killer"));
        assertTrue(JvmDeath.describe(exit(143)).contains("SIGTERM"));
        assertTrue(JvmDeath.describe(exit(134)).contains("SIGABRT") && JvmDeath.describe(exit(134)).contains("hs_err_pid"));
        assertTrue(JvmDeath.describe(exit(139)).contains("SIGSEGV"));
    }

    @Test
    void anExitCodeIsTheCodesOwnExit() {
        String seven = JvmDeath.describe(exit(7));
        assertTrue(seven.startsWith("exited with code 7 (System.exit(7)"), seven);
        assertTrue(JvmDeath.describe(exit(ForkRun.TIMED_OUT)).contains("-Dbench.callTimeoutSeconds"));
        assertTrue(JvmDeath.describe(exit(ForkRun.UNUSABLE)).contains("out of memory"));
    }

    @Test
    void onlyAKillOrTermFromOutsideIsMeasuredAgain() {
        assertTrue(JvmDeath.killedFromOutside(exit(137), null));
        assertTrue(JvmDeath.killedFromOutside(exit(143), null));
        assertFalse(JvmDeath.killedFromOutside(exit(137), "stopped as slow"), "the sweep's own stop is not from outside");
        assertFalse(JvmDeath.killedFromOutside(new ForkExecutor.ForkExit(1, 137, 0, "", "silent for 60 s"), null),
                "a JVM the sweep killed as stuck is the cell's failure");
        assertFalse(JvmDeath.killedFromOutside(exit(7), null), "the code's own exit fails its cell");
        assertFalse(JvmDeath.killedFromOutside(exit(134), null), "a native crash fails its cell");
        assertTrue(JvmDeath.describe(new ForkExecutor.ForkExit(1, 137, 0, "", "it printed nothing for 60 s"))
                .startsWith("was killed by the sweep: it printed nothing"));
    }

    /** A fork stopped from outside (SIGSTOP) and gone on is measured again, as one killed from outside, saying so. */
    @Test
    void aForkPausedFromOutsideIsMeasuredAgainAndSaysWhy() {
        ForkExecutor.ForkExit paused = new ForkExecutor.ForkExit(1, 137, 0, "", null,
                "it was stopped from outside (SIGSTOP, or a debugger) for 90 s and then went on");
        assertTrue(JvmDeath.killedFromOutside(paused, null));
        assertTrue(JvmDeath.describe(paused).startsWith("was ended by the sweep: it was stopped from outside"),
                JvmDeath.describe(paused));
    }

    /** The sweep tells a stopped process from a stuck one by its state, as the kernel reports it. */
    @Test
    void aStoppedProcessIsSeenStopped() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self")),
                "needs /proc (Linux)");
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            assertFalse(JvmForkExecutor.stoppedFromOutside(sleeper.pid()));
            new ProcessBuilder("kill", "-STOP", Long.toString(sleeper.pid())).start().waitFor();
            boolean seen = false;
            for (int i = 0; i < 100 && !seen; i++) {
                seen = JvmForkExecutor.stoppedFromOutside(sleeper.pid());
                Thread.sleep(20);
            }
            assertTrue(seen, "SIGSTOP shows as state T");
            new ProcessBuilder("kill", "-CONT", Long.toString(sleeper.pid())).start().waitFor();
            boolean going = false;
            for (int i = 0; i < 100 && !going; i++) {
                going = !JvmForkExecutor.stoppedFromOutside(sleeper.pid());
                Thread.sleep(20);
            }
            assertTrue(going, "SIGCONT lets it go on");
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
        assertFalse(JvmForkExecutor.stoppedFromOutside(sleeper.pid()), "a process that is gone is not stopped");
    }
}
