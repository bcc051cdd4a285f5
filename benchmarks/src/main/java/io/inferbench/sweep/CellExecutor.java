package io.inferbench.sweep;

import java.nio.file.Path;

/**
 * Runs one fork of one cell in a fresh JVM, which leaves a
 * {@link io.inferbench.measure.ForkMeasurement} JSON file (or a {@code .error} file) in {@code forkDir}.
 * {@code runDir} is the run's folder, for any engine-level output that goes beside {@code run.json}.
 * The JMH implementation lives in the {@code jmh} package, the only one that knows JMH.
 */
public interface CellExecutor {
    void execute(Cell cell, Path forkDir, Path runDir) throws Exception;
}
