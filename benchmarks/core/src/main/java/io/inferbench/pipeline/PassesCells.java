package io.inferbench.pipeline;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import io.inferbench.results.AbSection;
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
     * The order of A's and B's calls in the fork of {@code round} of a {@code passes} cell: its measured units, those in
     * which B's call ran first, and each side's p50 when second against its p50 when first (a side's calls run second
     * are its phase less its phase of those run first: the same values, so HdrHistogram's subtraction is exact). Null
     * where no fork of that round ended, or the forks did not record the order.
     */
    static AbSection.CallOrder order(CellResult pair, int round) {
        CellResult.UnitPhases phases = pair.phases();
        if (phases == null || phases.histogramsNs() == null || pair.forkRuns() == null
                || !phases.histogramsNs().containsKey(AlternatingKind.B_FIRST)) {
            return null;
        }
        for (int j = 0; j < pair.forkRuns().size(); j++) {
            if (pair.forkRuns().get(j).round() != round) {
                continue;
            }
            int fork = j;
            java.util.function.Function<String, Histogram> of = phase -> HistogramCodec.decode(
                    phases.forkHistogramsNs() != null && phases.forkHistogramsNs().containsKey(phase)
                            ? phases.forkHistogramsNs().get(phase).get(fork) : phases.histogramsNs().get(phase));
            Histogram a = of.apply(AlternatingKind.A);
            Histogram aFirst = of.apply(AlternatingKind.A_FIRST);
            Histogram b = of.apply(AlternatingKind.B);
            Histogram bFirst = of.apply(AlternatingKind.B_FIRST);
            return new AbSection.CallOrder(a.getTotalCount(), bFirst.getTotalCount(), secondPercent(a, aFirst),
                    secondPercent(b, bFirst));
        }
        return null;
    }

    /** A side's p50 over its calls run second ({@code all} less {@code first}) against its p50 over those run first. */
    private static Double secondPercent(Histogram all, Histogram first) {
        Histogram second = all.copy();
        second.subtract(first);
        if (first.getTotalCount() == 0 || second.getTotalCount() == 0) {
            return null;
        }
        return 100 * ((double) second.getValueAtPercentile(50) / first.getValueAtPercentile(50) - 1);
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
                perFork.size() > 1 ? perFork : null),
                new CellResult.ForkRecords(pair.forkRuns(), pair.departedForks(), null));
    }
}
