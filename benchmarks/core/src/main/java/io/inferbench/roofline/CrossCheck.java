package io.inferbench.roofline;

import io.inferbench.Text;
import io.inferbench.analysis.Regime;
import io.inferbench.analysis.SeriesFit;
import io.inferbench.results.CellProfile;
import io.inferbench.results.ProfileResult;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A series' slope verdict against the roofline class of its cells and its op profile, and which evidence wins. The slope
 * says how latency grows with batch; the roofline says what bounds a pass. They disagree in two telling ways: a flat
 * curve that is per-call overhead rather than memory traffic (fuse, make fewer calls; batching only amortises it), and a
 * proportional curve far from the FLOP peak (the kernels, not the hardware, set the pace).
 */
public final class CrossCheck {
    /** A fixed cost per call at least this share of the smallest batch's pass is named in a transitional verdict. */
    static final double SIGNIFICANT_FLOOR_SHARE = 0.2;

    private CrossCheck() {
    }

    public static ProfileResult.CrossCheck of(SeriesFit fit, List<CellProfile> cells) {
        Map<Integer, String> classes = new TreeMap<>();
        cells.forEach(c -> classes.put(c.batch(), c.rooflineClass()));
        CellProfile first = cells.stream().min((a, b) -> Integer.compare(a.batch(), b.batch())).orElseThrow();
        CellProfile last = cells.stream().max((a, b) -> Integer.compare(a.batch(), b.batch())).orElseThrow();
        String explanation = explain(fit, first, last) + ops(first);
        return new ProfileResult.CrossCheck(fit.backend(), fit.device(), fit.model(), fit.seqLen(), fit.verdictLabel(), classes,
                explanation, answer(fit, first, last));
    }

    /**
     * Where the slope and the roofline disagree, the bottleneck and the remedy in one sentence, for the answer line; null
     * where they agree or do not speak to each other. The two disagreements that matter for a decision:
     * <ul>
     *   <li>latency proportional to batch while the passes run near the memory roof: activation traffic grows with the
     *       batch, so the remedy is fewer bytes, not less arithmetic;</li>
     *   <li>a flat curve while the passes already run near the FLOP roof: batching fills idle compute, and is cheap only up
     *       to where it reaches the roof.</li>
     * </ul>
     * Then the two where the hardware is not the bound: a flat curve that is per-call overhead, and a proportional curve
     * far from both roofs.
     */
    static String answer(SeriesFit fit, CellProfile first, CellProfile last) {
        Regime regime = fit.regime();
        String lastClass = last.rooflineClass();
        if (regime == Regime.COMPUTE_BOUND && Roofline.MEMORY.equals(lastClass)) {
            return Text.f("latency grows in proportion to batch, and its passes move bytes at %s of the machine's memory roof: "
                    + "activation traffic grows with batch, so batching gains nothing; fewer bytes (fusion, lower precision) would",
                    pct(last.bytesPercentOfPeak()));
        }
        if (regime == Regime.MEMORY_BOUND && Roofline.COMPUTE.equals(lastClass)) {
            return Text.f("latency stays nearly flat as batch grows, yet the batch-%d pass already runs at %s of the FLOP roof: "
                    + "batching fills idle compute and is nearly free up to batch %d, past which compute binds; less arithmetic, "
                    + "not fewer bytes, would cut it", last.batch(), pct(last.flopsPercentOfPeak()), last.batch());
        }
        if ((regime == Regime.MEMORY_BOUND || regime == Regime.TRANSITIONAL) && Roofline.OVERHEAD.equals(first.rooflineClass())) {
            return Text.f("the flat part is per-call overhead, not memory: the fixed cost per call (%.3f ms) is %.0f%% of the "
                    + "batch-%d pass; batching spreads it, fewer and fused calls would remove it", first.callFloorMs(),
                    100 * first.callFloorShare(), first.batch());
        }
        if (regime == Regime.COMPUTE_BOUND && Roofline.BETWEEN.equals(lastClass)) {
            return Text.f("latency grows in proportion to batch although the batch-%d pass reaches only %s of the FLOP roof "
                    + "and %s of the machine's memory roof: the engine's kernels set the pace, so larger batches will not help "
                    + "and faster kernels or another engine would", last.batch(), pct(last.flopsPercentOfPeak()),
                    pct(last.bytesPercentOfPeak()));
        }
        return null;
    }

    static String explain(SeriesFit fit, CellProfile first, CellProfile last) {
        String slope = fit.verdictLabel();
        Regime regime = fit.regime();
        String firstClass = first.rooflineClass();
        if (Roofline.UNKNOWN.equals(firstClass) && Roofline.UNKNOWN.equals(last.rooflineClass())) {
            return "The work of a pass is unknown for this model (" + first.workNote() + "), so the slope's verdict (" + slope
                    + ") stands alone.";
        }
        if (Roofline.OVERHEAD.equals(firstClass) && (regime == Regime.TRANSITIONAL || regime == Regime.MEMORY_BOUND)) {
            return Text.f("The slope says %s; the roofline says the flat part is per-call overhead: the fixed cost per call "
                            + "(%.3f ms) is %.0f%% of the batch-%d pass, at %s of the FLOP peak. The roofline wins on the remedy: "
                            + "fewer, fused calls would cut latency; batching only spreads the overhead over more samples (the "
                            + "slope's fixed cost: %s ms).",
                    slope, first.callFloorMs(), 100 * first.callFloorShare(), first.batch(), pct(first.flopsPercentOfPeak()),
                    Text.number(fit.fixedCostMs()));
        }
        if (regime == Regime.TRANSITIONAL && first.callFloorShare() != null
                && first.callFloorShare() >= SIGNIFICANT_FLOOR_SHARE) {
            return Text.f("The slope says %s; part of the reason is per-call overhead: the fixed cost per call (%.3f ms) is %.0f%% "
                            + "of the batch-%d pass and %.0f%% at batch %d, which batching spreads but does not remove; the rest "
                            + "of the pass is %s (%s). Fewer, fused calls would cut the fixed part.",
                    slope, first.callFloorMs(), 100 * first.callFloorShare(), first.batch(), 100 * last.callFloorShare(),
                    last.batch(), first.rooflineClass(), first.classReason());
        }
        if (regime == Regime.MEMORY_BOUND && Roofline.MEMORY.equals(firstClass)) {
            return Text.f("Both say memory-bound: the slope, and up to %s of the machine's memory roof at batch %d (counted traffic, "
                    + "an upper bound: caches may serve part of it, so the slope is the firmer evidence). If the traffic is real, "
                    + "move fewer bytes: INT8 or FP16 weights, fused kernels; check by comparing a precision variant.",
                    pct(first.bytesPercentOfPeak()), first.batch());
        }
        if (regime == Regime.COMPUTE_BOUND && Roofline.COMPUTE.equals(last.rooflineClass())) {
            return Text.f("Both say compute-bound: %s of the measured FLOP roof at batch %d. Cut the work: a smaller model, shorter "
                    + "sequences.", pct(last.flopsPercentOfPeak()), last.batch());
        }
        if (regime == Regime.COMPUTE_BOUND && Roofline.BETWEEN.equals(last.rooflineClass())) {
            return Text.f("The slope says %s (latency proportional to batch), but at batch %d the pass reaches only %s of the "
                            + "measured FLOP roof and %s of the machine's memory roof: the engine's kernels set the pace, not the hardware. "
                            + "Both hold: larger batches will not help (slope), faster kernels or another engine would (roofline).",
                    slope, last.batch(), pct(last.flopsPercentOfPeak()), pct(last.bytesPercentOfPeak()));
        }
        if (regime == Regime.INCONCLUSIVE) {
            return "The slope gives no verdict; the roofline says " + last.rooflineClass() + " at batch " + last.batch() + ": "
                    + last.classReason() + ".";
        }
        return Text.f("The slope says %s; the roofline says %s at batch %d (%s) and %s at batch %d (%s). They do not contradict "
                        + "each other: the slope tells how latency grows with batch, the roofline what bounds one pass.",
                slope, firstClass, first.batch(), first.classReason(), last.rooflineClass(), last.batch(), last.classReason());
    }

    /** " 74% of the pass is MatMul at 60% of its roof; ..." from the smallest batch's profile, or nothing without one. */
    static String ops(CellProfile cell) {
        if (cell.opShares() == null || cell.opShares().isEmpty()) {
            return "";
        }
        List<ProfileResult.OpShare> top = cell.opShares().stream().limit(3).toList();
        return " At batch " + cell.batch() + ": " + top.stream().map(o -> Text.f("%.0f%% of the pass is %s%s", o.sharePercent(),
                o.opType(), o.rateWithheld() ? " (its rate is above the measured peak's tolerance: withheld)"
                        : o.flopsPercentOfPeak() == null ? " (moves data)" : Text.f(" at %.0f%% of its roof", o.flopsPercentOfPeak())))
                .collect(Collectors.joining("; ")) + ".";
    }

    private static String pct(Double value) {
        return value == null ? "n/a" : Text.f("%.0f%%", value);
    }
}
