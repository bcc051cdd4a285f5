package io.inferbench.runner;

import java.util.Locale;
import java.util.Map;

/**
 * Why a fork JVM ended, in words, from its exit ({@link ForkExecutor.ForkExit}): by a signal (an exit code of 128 + N on
 * Linux), by its own exit code, stopped by its watchdog, or killed by the sweep as stuck. What a cell it was measuring
 * when it ended records as its error, never as a crash of inferbench: the harness cannot tell a user's
 * {@code System.exit} from a native library's, but it can say which happened to the process.
 */
public final class JvmDeath {
    private static final Map<Integer, String> SIGNALS = Map.of(
            1, "SIGHUP", 2, "SIGINT", 4, "SIGILL", 6, "SIGABRT", 7, "SIGBUS", 8, "SIGFPE", 9, "SIGKILL", 11, "SIGSEGV",
            15, "SIGTERM");

    private JvmDeath() {
    }

    /** The signal that ended the JVM, or 0 when it exited by itself. */
    static int signal(int exitCode) {
        return exitCode > 128 && exitCode < 160 ? exitCode - 128 : 0;
    }

    /**
     * Killed from outside while it ran: {@code SIGKILL} (a {@code kill -9}, or the kernel's out-of-memory killer) or
     * {@code SIGTERM}, not by the sweep itself (stopped as slow, or as stuck); or stopped from outside ({@code SIGSTOP})
     * and ended by the sweep once it went on. Its measurement is not the cell's doing,
     * and the cell is measured again, once, in a fresh JVM.
     */
    static boolean killedFromOutside(ForkExecutor.ForkExit exit, String stoppedAsSlow) {
        if (exit.paused() != null) {
            return true; // stopped from outside and went on: the sweep ended it, for what was done to it
        }
        int signal = signal(exit.exitCode());
        return (signal == 9 || signal == 15) && exit.stoppedStuck() == null && stoppedAsSlow == null;
    }

    /** What ended the JVM, as a phrase: {@code killed by signal 9 (SIGKILL: ...)}, {@code exited with code 7 (...)}. */
    public static String describe(ForkExecutor.ForkExit exit) {
        if (exit.paused() != null) {
            return "was ended by the sweep: " + exit.paused();
        }
        if (exit.stoppedStuck() != null) {
            return "was killed by the sweep: " + exit.stoppedStuck();
        }
        int code = exit.exitCode();
        int signal = signal(code);
        if (signal != 0) {
            String name = SIGNALS.getOrDefault(signal, "signal " + signal);
            String why = switch (signal) {
                case 9 -> ": killed from outside, by kill -9 or the kernel's out-of-memory killer (see dmesg)";
                case 15 -> ": asked to stop from outside";
                case 6 -> ": aborted, by a native library or by the JVM's own fatal error (look for an hs_err_pid file in "
                        + "the run folder)";
                case 11, 7 -> ": a native crash, in the engine or in native code the unit called (look for an hs_err_pid "
                        + "file in the run folder)";
                default -> "";
            };
            return String.format(Locale.ROOT, "was killed by signal %d (%s%s)", signal, name, why);
        }
        return switch (code) {
            case ForkRun.UNUSABLE -> "stopped itself after an Error (out of memory, a stack overflow) in a cell";
            case ForkRun.TIMED_OUT -> "was stopped by its watchdog: a call ran past -Dbench.callTimeoutSeconds";
            case ForkRun.PARENT_GONE -> "stopped itself: the sweep's JVM was gone";
            case -1 -> "could not be started or waited for";
            default -> String.format(Locale.ROOT, "exited with code %d (System.exit(%d) or Runtime.halt(%d), or a native "
                    + "library's exit, in the code it ran)", code, code, code);
        };
    }
}
