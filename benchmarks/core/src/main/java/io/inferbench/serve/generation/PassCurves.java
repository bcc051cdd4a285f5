package io.inferbench.serve.generation;

import io.inferbench.results.GenerationResult;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The generation cells' pass times as curves, for the forecast: a prefill of {@code k} prompts padded to {@code P}
 * positions costs the cells' TTFT p50 (the pass and the first pick) at batch {@code k} and prompt {@code P}; a decode
 * step of {@code n} rows, the cells' step p50 (the pass and its pick) at batch {@code n}. Between measured batches and
 * prompt lengths the times are interpolated linearly, and beyond them extended along the last segment (in prompt
 * length, in proportion to it where one length was measured). A step's time is taken at the measured prompt length
 * nearest the requests' mean; its growth with the context is not in it.
 */
final class PassCurves {
    /** By prompt length, then batch: ms. */
    private final TreeMap<Integer, TreeMap<Integer, Double>> prefillMs = new TreeMap<>();
    private final TreeMap<Integer, TreeMap<Integer, Double>> stepMs = new TreeMap<>();
    private final int stepSeq;

    private PassCurves(List<GenerationResult.Cell> cells, double meanPrompt) {
        for (GenerationResult.Cell c : cells) {
            prefillMs.computeIfAbsent(c.seqLen(), k -> new TreeMap<>()).put(c.batch(), c.ttftMs().p50Ms());
            if (c.stepMs() != null) {
                stepMs.computeIfAbsent(c.seqLen(), k -> new TreeMap<>()).put(c.batch(), c.stepMs().p50Ms());
            }
        }
        int nearest = prefillMs.firstKey();
        for (int seq : stepMs.keySet()) {
            if (Math.abs(seq - meanPrompt) < Math.abs(nearest - meanPrompt) || !stepMs.containsKey(nearest)) {
                nearest = seq;
            }
        }
        this.stepSeq = nearest;
    }

    /**
     * The curves of one engine, device and model's cells; null when they cannot price the batches up to
     * {@code maxBatch} (one measured batch size cannot say what another costs, unless that is the only one used).
     */
    static PassCurves of(List<GenerationResult.Cell> cells, int maxBatch, double meanPrompt) {
        if (cells.isEmpty()) {
            return null;
        }
        boolean oneBatch = cells.stream().mapToInt(GenerationResult.Cell::batch).distinct().count() < 2;
        if (oneBatch && (maxBatch > 1 || cells.get(0).batch() != 1)) {
            return null;
        }
        return new PassCurves(cells, meanPrompt);
    }

    /** The prompt length steps are priced at. */
    int stepSeq() {
        return stepSeq;
    }

    long prefillNs(int prompts, int positions) {
        Map.Entry<Integer, TreeMap<Integer, Double>> low = prefillMs.floorEntry(positions);
        Map.Entry<Integer, TreeMap<Integer, Double>> high = prefillMs.ceilingEntry(positions);
        if (low == null) {
            low = high;
            high = prefillMs.higherEntry(low.getKey());
        } else if (high == null) {
            high = low;
            low = prefillMs.lowerEntry(high.getKey());
        }
        if (low == null || high == null || low.getKey().equals(high.getKey())) {
            Map.Entry<Integer, TreeMap<Integer, Double>> only = low != null ? low : high;
            return ms(atBatch(only.getValue(), prompts) * positions / only.getKey());
        }
        double a = atBatch(low.getValue(), prompts);
        double b = atBatch(high.getValue(), prompts);
        return ms(Math.max(0, a + (b - a) * (positions - low.getKey()) / (double) (high.getKey() - low.getKey())));
    }

    long stepNs(int rows) {
        TreeMap<Integer, Double> curve = stepMs.get(stepSeq);
        return curve == null ? 0 : ms(atBatch(curve, rows));
    }

    /** Step time at {@code rows} over step time at 1, on the same curve. */
    double stepCostOverOne(double rows) {
        TreeMap<Integer, Double> curve = stepMs.get(stepSeq);
        if (curve == null) {
            return Double.NaN;
        }
        return atBatch(curve, rows) / atBatch(curve, 1);
    }

    /** Linear in batch between measured batches, extended along the nearest segment beyond them. */
    static double atBatch(TreeMap<Integer, Double> curve, double batch) {
        if (curve.size() == 1) {
            return curve.firstEntry().getValue();
        }
        Map.Entry<Integer, Double> low = curve.floorEntry((int) Math.floor(batch));
        Map.Entry<Integer, Double> high = curve.ceilingEntry((int) Math.ceil(batch));
        if (low != null && high != null && low.getKey().equals(high.getKey())) {
            return low.getValue();
        }
        if (low == null) {
            low = curve.firstEntry();
            high = curve.higherEntry(low.getKey());
        } else if (high == null) {
            high = curve.lastEntry();
            low = curve.lowerEntry(high.getKey());
        }
        double slope = (high.getValue() - low.getValue()) / (high.getKey() - low.getKey());
        return Math.max(low.getValue() * 0.05, low.getValue() + slope * (batch - low.getKey()));
    }

    private static long ms(double ms) {
        return Math.round(ms * 1e6);
    }
}
