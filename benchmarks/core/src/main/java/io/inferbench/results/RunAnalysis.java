package io.inferbench.results;

import io.inferbench.analysis.Analysis;
import io.inferbench.analysis.BatchScalingAnalyzer;
import io.inferbench.analysis.LatencyPoint;
import io.inferbench.analysis.RegimeThresholds;

import java.util.List;

/** Feeds a run's measured cells to the batch-scaling analysis (failed cells take no part). */
public final class RunAnalysis {
    private RunAnalysis() {
    }

    public static Analysis analyze(RunResult run, RegimeThresholds thresholds) {
        return BatchScalingAnalyzer.analyze(points(run), thresholds);
    }

    static List<LatencyPoint> points(RunResult run) {
        return run.cells().stream().filter(CellResult::measured)
                .map(c -> new LatencyPoint(c.backend(), c.device(), c.model(), c.seqLen(), c.batch(),
                        c.latencyMs().p50Ms(), c.latencyMs().p90Ms(), c.latencyMs().p99Ms(), c.samplesPerSecond(),
                        c.latencyMs().stdevMs() / c.latencyMs().meanMs()))
                .toList();
    }
}
