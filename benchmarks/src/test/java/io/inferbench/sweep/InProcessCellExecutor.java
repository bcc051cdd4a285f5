package io.inferbench.sweep;

import io.inferbench.measure.PassRecorder;

import java.nio.file.Path;

/**
 * Runs a cell in the test JVM, without JMH or forks, through the same {@link CellTrial} a fork uses: fast
 * enough for tests of the sweep's bookkeeping. The real forked path is covered by the JMH end-to-end test.
 */
public final class InProcessCellExecutor implements CellExecutor {
    private final SweepOptions options;

    public InProcessCellExecutor(SweepOptions options) {
        this.options = options;
    }

    @Override
    public void execute(Cell cell, Path forkDir, Path runDir) {
        ForkSettings settings = ForkSettings.of(options, forkDir);
        try (CellTrial trial = CellTrial.open(cell, settings)) {
            trial.recorder().beginPhase(PassRecorder.Phase.WARMUP);
            for (int i = 0; i < options.warmupPasses(); i++) {
                trial.recorder().timePass(trial.session());
            }
            trial.recorder().beginPhase(PassRecorder.Phase.MEASUREMENT);
            for (int i = 0; i < options.measuredPasses(); i++) {
                trial.recorder().timePass(trial.session());
            }
            trial.persist();
        }
    }
}
