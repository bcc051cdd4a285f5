package io.inferbench.engine.targets;

import io.inferbench.BenchmarkException;

/**
 * A target's own code failed or broke its contract (a call that threw, or returned nothing to consume): the user's
 * failure, not the harness's, so a cell it ends is a finding (exit 1), and in the preflight the run is refused (exit 2).
 * Its message names the class, the exception and the first frame of the user's code; the cause keeps the whole trace.
 */
final class TargetFailure extends BenchmarkException {
    TargetFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
