package io.inferbench.pipeline;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunConfig;
import io.inferbench.runner.Preflight;
import io.inferbench.sweep.AlternatingKind;
import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * An A/B run's cells in the {@code passes} mode ({@link AlternatingKind}): the fork runner's cells are of units that
 * held one pass of A and one of B, and each subject's cells are made from them here, its own phase alone, before
 * anything else of the run reads them.
 */
final class PassesCells {
    private PassesCells() {
    }

    /** The one model of a subject's preflight: a passes run compares one model with one. */
    static RunConfig.ModelInfo only(Preflight.Result result) {
        return result.modelInfos().values().iterator().next();
    }

    static List<CellResult> sides(List<CellResult> cells, String phase, RunConfig.ModelInfo model) {
        return cells.stream().map(c -> side(c, phase, model)).toList();
    }

    /**
     * One subject's cell of a {@code passes} fork's cell, whose unit was A's pass and B's: its percentiles, histograms
     * and throughput are the phase {@code phase}'s alone ({@link AlternatingKind#A} or {@link AlternatingKind#B}), each
     * fork's on its own where there are several, and its model is {@code model}. What the fork did as a whole stays: the
     * counts of pairs warmed up and measured, each fork's warm-up end, stop reason and CPU reading ({@code forkRuns}).
     * The warm-up's percentiles are left out: the warm-up timed both passes together. A failed cell stays failed, with
     * no percentiles.
     */
    static CellResult side(CellResult pair, String phase, RunConfig.ModelInfo model) {
        CellResult.UnitPhases phases = pair.phases();
        List<String> perFork = null;
        if (phases != null && phases.histogramsNs() != null && phases.histogramsNs().containsKey(phase)) {
            perFork = phases.forkHistogramsNs() != null && phases.forkHistogramsNs().containsKey(phase)
                    ? phases.forkHistogramsNs().get(phase) : List.of(phases.histogramsNs().get(phase));
        } else if (!pair.measured()) {
            perFork = List.of(); // a failed cell keeps no phases: its forks' pairs are in the ab section
        }
        if (perFork == null) {
            throw new IllegalStateException(pair.id() + ": a passes fork recorded no phase " + phase);
        }
        Histogram merged = PassRecorder.newHistogram();
        List<Histogram> decoded = perFork.stream().map(HistogramCodec::decode).toList();
        decoded.forEach(merged::add);
        boolean measured = pair.measured() && merged.getTotalCount() > 0;
        LatencySummary latency = measured ? LatencySummary.ofForks(decoded) : null;
        return new CellResult(pair.status(), pair.error(), new CellResult.Identity(pair.backend(), pair.device(),
                model.name(), model.sha256(), pair.seqLen(), pair.batch()), pair.counts(),
                new CellResult.Latency(latency, null, measured ? pair.batch() * 1000.0 / latency.meanMs() : null),
                pair.coldStarts(), pair.session(), new CellResult.Histograms(measured ? HistogramCodec.encode(merged) : null,
                perFork.size() > 1 ? perFork : null), pair.forkRuns(), pair.departedForks(), null);
    }
}
