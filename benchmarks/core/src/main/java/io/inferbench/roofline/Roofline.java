package io.inferbench.roofline;

import io.inferbench.Text;
import io.inferbench.results.ProfileResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A cell against this machine's measured roofs: achieved FLOP/s and bytes/s (the cell's p50 pass over its counted work),
 * as shares of the engine's measured FLOP peak and of the machine's memory roof (measured by the harness itself, one
 * roof for every engine: {@link MachineBandwidth}; the engine's own bandwidth figure is kept beside it), its arithmetic
 * intensity against the ridge point, and a class by the rule in
 * {@link ProfileResult.RooflineThresholds}. A share above the tolerance over 100% is not printed: the calibration (or,
 * for bytes, the traffic model, which ignores the caches) is wrong for that cell. Only that figure is withheld: FLOPs
 * above the peak leave no class (the roof is wrong), bytes above it leave the class to the FLOPs and the fixed cost.
 *
 * <p><b>Bytes are an upper bound.</b> The traffic model charges every kernel's inputs and outputs to memory; caches can
 * only lower the true DRAM traffic. So a byte share can show that a cell is <em>not</em> memory-bound, and a
 * memory-bound class rests on an upper bound: its reason says so, and so does the advice built on it.
 */
public final class Roofline {
    public static final String COMPUTE = "compute-bound";
    public static final String MEMORY = "memory-bound";
    public static final String OVERHEAD = "overhead-bound";
    public static final String BETWEEN = "in between";
    public static final String UNRELIABLE = "unreliable";
    public static final String UNKNOWN = "unknown";

    private Roofline() {
    }

    /**
     * Achieved rates and the class of a pass of {@code passMs} doing {@code flops} and {@code bytes} (null when unknown),
     * of which {@code floorMs} is the model's fixed cost per call ({@link ProfileResult.ModelFloor}).
     *
     * @param achieved           the pass's rates against the roofs; null when its work is unknown
     * @param roofFlopsPerSecond the FLOP roof this pass's mix of work is judged against: its FLOPs over the time they need
     *                           at each precision's roof (the float32 one alone for float32 work); null when unknown
     * @param roofNote           which roofs made it, and any precision judged against another's roof for want of its own
     */
    public record Placed(Achieved achieved, double floorShare, String rooflineClass, String reason, Double roofFlopsPerSecond,
                         String roofNote) {

        /**
         * What a pass of known work achieved. A figure over the tolerance above its roof is withheld (null): the FLOP
         * figures where the calibration underestimates the engine, the traffic where caches served what the model counts
         * as memory.
         *
         * @param bytesPercentOfEngine the traffic against the engine's own bandwidth figure, where the machine's roof
         *                             judged it; null otherwise
         */
        public record Achieved(Double flopsPerSecond, Double bytesPerSecond, Double flopsPercent, Double bytesPercent,
                               double intensity, Double bytesPercentOfEngine) {
        }

        public Double flopsPerSecond() {
            return achieved == null ? null : achieved.flopsPerSecond();
        }

        public Double bytesPerSecond() {
            return achieved == null ? null : achieved.bytesPerSecond();
        }

        public Double flopsPercent() {
            return achieved == null ? null : achieved.flopsPercent();
        }

        public Double bytesPercent() {
            return achieved == null ? null : achieved.bytesPercent();
        }

        /** FLOPs per byte of the pass; null when its work is unknown. */
        public Double intensity() {
            return achieved == null ? null : achieved.intensity();
        }

        public Double bytesPercentOfEngine() {
            return achieved == null ? null : achieved.bytesPercentOfEngine();
        }
    }

    /** A pass whose FLOPs all run under the float32 roof. */
    public static Placed place(Double flops, Double bytes, double passMs, double floorMs, ProfileResult.Calibration peaks,
                               ProfileResult.RooflineThresholds th) {
        return place(flops == null ? null : Map.of(WorkCount.FP32, flops), bytes, passMs, floorMs, peaks, th);
    }

    /**
     * The roof of a mix of work: its FLOPs over the seconds they need, each precision's at its own measured roof
     * ({@link ProfileResult.Calibration#roof}). A precision with no measured roof is judged against the float32 one, and
     * the note says so: a share of the float32 roof is then not a share of what that arithmetic can do.
     */
    record Roof(double flopsPerSecond, String note) {
        static Roof of(Map<String, Double> flopsByPrecision, ProfileResult.Calibration peaks) {
            Map<String, Double> parts = new TreeMap<>(flopsByPrecision);
            double flops = parts.values().stream().mapToDouble(Double::doubleValue).sum();
            if (flops <= 0 || parts.keySet().equals(java.util.Set.of(WorkCount.FP32))) {
                return new Roof(peaks.peakFlopsPerSecond(), FLOAT32_ONLY);
            }
            double seconds = 0;
            List<String> notes = new ArrayList<>();
            for (Map.Entry<String, Double> e : parts.entrySet()) {
                Double measured = peaks.roof(e.getKey());
                double roof = roofOf(peaks, e.getKey());
                seconds += e.getValue() / roof;
                double share = 100 * e.getValue() / flops;
                notes.add(measured == null
                        ? Text.f("%s work (%.0f%%) against the float32 roof, as no %s roof was measured for this engine and device",
                            e.getKey(), share, e.getKey())
                        : Text.f("%s work (%.0f%%) at the %s roof %.1f G/s", e.getKey(), share, e.getKey(), roof / 1e9));
            }
            double roof = flops / seconds;
            return new Roof(roof, Text.f("%.1f G/s for this mix: %s", roof / 1e9, String.join("; ", notes)));
        }
    }

    /** A precision's measured roof, or the float32 one where that precision has none. */
    static double roofOf(ProfileResult.Calibration peaks, String precision) {
        Double measured = peaks.roof(precision);
        return measured == null ? peaks.peakFlopsPerSecond() : measured;
    }

    /** The note of work that is all float32: judged against the float32 roof, as always. */
    static final String FLOAT32_ONLY = "the float32 roof";

    public static Placed place(Map<String, Double> flopsByPrecision, Double bytes, double passMs, double floorMs,
                               ProfileResult.Calibration peaks, ProfileResult.RooflineThresholds th) {
        Double flops = flopsByPrecision == null ? null : flopsByPrecision.values().stream().mapToDouble(Double::doubleValue).sum();
        double floorShare = Math.min(1, floorMs / passMs);
        if (flops == null || bytes == null) {
            boolean overhead = floorShare >= th.overheadMinShare();
            return new Placed(null, floorShare, overhead ? OVERHEAD : UNKNOWN, overhead
                    ? Text.f("the fixed cost per call (%.3f ms) is %.0f%% of the pass; the work is unknown", floorMs, 100 * floorShare)
                    : "the work of a pass is unknown for this model, so it cannot be placed against the peaks", null, null);
        }
        double seconds = passMs / 1e3;
        double flopRate = flops / seconds;
        double byteRate = bytes / seconds;
        Roof roof = Roof.of(flopsByPrecision, peaks);
        double memoryRoof = peaks.memoryRoofBytesPerSecond();
        String bandwidth = peaks.machineRoof() == null ? "the measured bandwidth" : "the machine's memory roof";
        double ridge = roof.flopsPerSecond() / memoryRoof;
        double flopPct = 100 * flopRate / roof.flopsPerSecond();
        double bytePct = 100 * byteRate / memoryRoof;
        Double bytePctOfEngine = peaks.machineRoof() == null ? null : 100 * byteRate / peaks.peakBytesPerSecond();
        double intensity = flops / bytes;
        boolean flopsSound = flopPct <= th.maxOverPeakPercent();
        boolean bytesSound = bytePct <= th.maxOverPeakPercent();
        String bytesWithheld = bytesSound ? "" : Text.f("; the traffic figure is withheld: %.0f%% of %s, so caches served "
                + "traffic the model counts as memory (tolerance %.0f%%)", bytePct, bandwidth, th.maxOverPeakPercent());
        if (!flopsSound) {
            // The calibrated FLOP roof is below what this cell does: no class can rest on it. The traffic figure, if
            // sound, is kept.
            return new Placed(new Placed.Achieved(null, bytesSound ? byteRate : null, null, bytesSound ? bytePct : null, intensity,
                    bytesSound ? bytePctOfEngine : null), floorShare,
                    UNRELIABLE, Text.f("FLOP figures withheld: %.0f%% of the measured FLOP roof (%s), so the calibration "
                    + "underestimates this engine's peak (tolerance %.0f%%)", flopPct, roof.note(), th.maxOverPeakPercent())
                    + bytesWithheld, roof.flopsPerSecond(), roof.note());
        }
        String rooflineClass;
        String reason;
        if (floorShare >= th.overheadMinShare()) {
            rooflineClass = OVERHEAD;
            reason = Text.f("the fixed cost per call (%.3f ms) is %.0f%% of the pass, at %.0f%% of the FLOP roof", floorMs,
                    100 * floorShare, flopPct) + (bytesSound ? Text.f(" and at most %.0f%% of %s", bytePct, bandwidth) : bytesWithheld);
        } else if (flopPct >= th.computeMinPercent()
                && (!bytesSound || flopPct / th.computeMinPercent() >= bytePct / th.memoryMinPercent())) {
            rooflineClass = COMPUTE;
            reason = Text.f("%.0f%% of the measured FLOP roof (intensity at least %.1f FLOP/byte, ridge %.1f)", flopPct, intensity,
                    ridge) + bytesWithheld;
        } else if (bytesSound && bytePct >= th.memoryMinPercent()) {
            rooflineClass = MEMORY;
            reason = Text.f("up to %.0f%% of %s%s (intensity at least %.1f FLOP/byte, below the ridge %.1f); the "
                    + "traffic counts every kernel's inputs and outputs as memory, an upper bound that caches can only lower, so "
                    + "this class rests on it", bytePct, bandwidth, engineShare(bytePctOfEngine), intensity, ridge);
        } else {
            rooflineClass = BETWEEN;
            reason = Text.f("%.0f%% of the FLOP roof%s: neither roof is near, and the fixed cost per call is %.0f%% of the pass; "
                    + "the kernels, not the hardware, set the pace", flopPct, bytesSound ? Text.f(" and at most %.0f%% of %s%s",
                    bytePct, bandwidth, engineShare(bytePctOfEngine)) : "", 100 * floorShare) + bytesWithheld;
        }
        if (!FLOAT32_ONLY.equals(roof.note())) {
            reason += "; FLOP roof " + roof.note();
        }
        return new Placed(new Placed.Achieved(flopRate, bytesSound ? byteRate : null, flopPct, bytesSound ? bytePct : null, intensity,
                bytesSound ? bytePctOfEngine : null), floorShare, rooflineClass, reason, roof.flopsPerSecond(), roof.note());
    }

    /** " (N% of the engine's own bandwidth figure)", where the machine's roof judged the cell; nothing otherwise. */
    private static String engineShare(Double percentOfEngine) {
        return percentOfEngine == null ? "" : Text.f(" (%.0f%% of the engine's own bandwidth figure)", percentOfEngine);
    }
}
