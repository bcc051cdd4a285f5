package io.inferbench.sweep;

import java.nio.file.Path;

/**
 * Runs one cell to completion in one or more fresh JVMs, each of which leaves a
 * {@link io.inferbench.measure.ForkMeasurement} JSON file (or a {@code .error} file) in {@code forkDir}.
 * {@code runDir} is the run's folder, for any engine-level output that goes beside {@code run.json}.
 * The JMH implementation lives in the {@code jmh} package, the only one that knows JMH.
 */
public interface CellExecutor {
    void execute(Cell cell, Path forkDir, Path runDir) throws Exception;
}
