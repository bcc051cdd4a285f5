package io.inferbench;

/**
 * A problem the user can fix: bad model, bad option, unusable device, unwritable folder.
 *
 * <p>Messages state the rule that was broken and what to do about it, and always chain the cause.
 * The harness raises these during set-up, before anything is measured.
 */
public class BenchmarkException extends RuntimeException {
    public BenchmarkException(String message) {
        super(message);
    }

    public BenchmarkException(String message, Throwable cause) {
        super(message, cause);
    }
}
