package io.inferbench.runner;

/**
 * How a cell ended when neither its engine nor the harness threw: its call ran past the watchdog's limit
 * ({@link CallWatchdog}), or its fork JVM exited or was killed while measuring it ({@link JvmDeath}). Its message is the
 * cell's error as it stands, never labelled a crash of inferbench.
 */
public final class CellFault extends RuntimeException {
    public CellFault(String message) {
        super(message, null, false, false);
    }
}
