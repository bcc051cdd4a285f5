package io.inferbench.generate;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.measure.PassRecorder;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/** Everything one generation cell measured, over all its rounds: a histogram per number, and one per decode position. */
final class CellRecorder {
    final Histogram ttft = PassRecorder.newHistogram();
    final Histogram prefill = PassRecorder.newHistogram();
    final Histogram step = PassRecorder.newHistogram();
    final Histogram handOff = PassRecorder.newHistogram();
    final Histogram total = PassRecorder.newHistogram();
    final List<Histogram> byPosition = new ArrayList<>();
    final List<String> stops = new ArrayList<>();
    long warmupGenerations;
    long cacheBytes;
    long[][] firstTokens;

    void record(Generation g) {
        ttft.recordValue(Math.max(1, g.ttftNs()));
        prefill.recordValue(Math.max(1, g.prefillNs()));
        total.recordValue(Math.max(1, g.totalNs()));
        for (int i = 0; i < g.stepNs().length; i++) {
            step.recordValue(Math.max(1, g.stepNs()[i]));
            handOff.recordValue(Math.max(1, g.handOffNs()[i]));
            while (byPosition.size() <= i) {
                byPosition.add(PassRecorder.newHistogram());
            }
            byPosition.get(i).recordValue(Math.max(1, g.stepNs()[i]));
        }
        cacheBytes = g.cacheBytes();
        if (firstTokens == null) {
            firstTokens = g.tokens();
        }
    }

    /** Adds a fork's measurement of this cell. */
    void merge(GenerationJob.CellResult fork) {
        ttft.add(HistogramCodec.decode(fork.ttft()));
        prefill.add(HistogramCodec.decode(fork.prefill()));
        step.add(HistogramCodec.decode(fork.step()));
        handOff.add(HistogramCodec.decode(fork.handOff()));
        total.add(HistogramCodec.decode(fork.total()));
        for (int i = 0; i < fork.byPosition().size(); i++) {
            while (byPosition.size() <= i) {
                byPosition.add(PassRecorder.newHistogram());
            }
            byPosition.get(i).add(HistogramCodec.decode(fork.byPosition().get(i)));
        }
        warmupGenerations += fork.warmupGenerations();
        stops.add(fork.stop());
        cacheBytes = fork.cacheBytes();
        if (firstTokens == null) {
            firstTokens = fork.firstTokens();
        }
    }

    static LatencySummary summary(Histogram h) {
        return h.getTotalCount() == 0 ? null : LatencySummary.of(h);
    }

    List<Double> stepP50ByPosition() {
        return byPosition.stream().map(h -> h.getValueAtPercentile(50) / 1e6).toList();
    }
}
