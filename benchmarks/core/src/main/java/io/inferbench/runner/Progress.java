package io.inferbench.runner;

import io.inferbench.Text;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The sweep's progress: one line per cell and fork, with what it measured and why it stopped, the time elapsed and an honest estimate of the
 * time left ({@link EtaEstimator}).
 *
 * <p>Every line goes to the run's {@code console.log}. On the console:
 * <ul>
 *   <li>on a terminal, each cell run rewrites one status line in place, so a sweep of 144 takes one line;</li>
 *   <li>in a log (CI, a pipe, a file), at most {@value #LOGGED_LINES} evenly spaced runs get a line of their own, plus
 *       the last one and every failure, so the tables and verdicts are not buried.</li>
 * </ul>
 */
final class Progress {
    /** Progress lines printed to a non-terminal console over a whole sweep, failures aside. */
    static final int LOGGED_LINES = 12;

    private final PrintStream console;
    private final boolean terminal;
    private final Path logFile;
    private int total;
    private int every;
    private final long startNs = System.nanoTime();
    private int statusWidth;
    private boolean logBroken;

    Progress(PrintStream console, boolean terminal, Path logFile, int total) {
        this(console, terminal, logFile, total, null);
    }

    /** @param label what the lines call this measurement when a run has two (an A/B run's subject); null for none */
    Progress(PrintStream console, boolean terminal, Path logFile, int total, String label) {
        this.label = label == null ? "" : label + " ";
        this.console = console;
        this.terminal = terminal;
        this.logFile = logFile;
        this.total = total;
        this.every = Math.max(1, (int) Math.ceil(total / (double) LOGGED_LINES));
    }

    private boolean quiet;
    private final String label;

    /**
     * While quiet, a finished run goes to the log only (a failed one still to the console): forks measured again after
     * the rounds, which the console's line budget has no room for.
     */
    void quiet(boolean on) {
        quiet = on;
    }

    /** What the lines call this measurement, with a space after it; empty when the run has one. */
    String label() {
        return label;
    }

    /** More cell runs than planned: forks measured again ({@link ForkDeparture}). */
    void addRuns(int runs) {
        total += runs;
        every = Math.max(1, (int) Math.ceil(total / (double) LOGGED_LINES));
    }

    /** A line for the console and the log, printed as it comes (before and after the sweep). */
    void say(String line) {
        endStatus();
        console.println(line);
        log(line);
    }

    /** One cell finished (or failed, or skipped) in one fork. */
    void runFinished(int step, String what, boolean failed, double etaSeconds) {
        String line = Text.f("[inferbench] %srun %d of %d: %s | elapsed %s, %s", label, step, total, what, duration(elapsedSeconds()),
                Double.isNaN(etaSeconds) ? "time left not known yet" : "about " + duration(etaSeconds) + " left");
        log(line);
        if (quiet && !failed) {
            return;
        }
        if (terminal && !failed) {
            String status = line.length() > 160 ? line.substring(0, 157) + "..." : line;
            console.print("\r" + status + " ".repeat(Math.max(0, statusWidth - status.length())));
            console.flush();
            statusWidth = status.length();
            if (step == total) {
                endStatus();
            }
        } else if (failed || step == total || step == 1 || step % every == 0) {
            endStatus();
            console.println(line);
        }
    }

    PrintStream console() {
        return console;
    }

    double elapsedSeconds() {
        return (System.nanoTime() - startNs) / 1e9;
    }

    /** Ends an in-place status line, so that what follows starts on a line of its own. */
    void endStatus() {
        if (statusWidth > 0) {
            console.println();
            statusWidth = 0;
        }
    }

    /** A line for the run's log only: detail the console's line budget has no room for. */
    void log(String line) {
        if (logFile == null) {
            return;
        }
        try {
            Files.writeString(logFile, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            // A log that cannot be written must not stop a sweep that is measuring; say so once.
            if (!logBroken) {
                logBroken = true;
                endStatus();
                console.println("[inferbench] WARNING: cannot append to " + logFile + " (" + e + "); progress stays on the console only");
            }
        }
    }

    static String duration(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? Text.f("%d h %02d min", s / 3600, (s % 3600) / 60)
                : s >= 60 ? Text.f("%d min %02d s", s / 60, s % 60) : s + " s";
    }
}
