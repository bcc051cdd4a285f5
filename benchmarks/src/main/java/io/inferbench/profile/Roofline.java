package io.inferbench.profile;

import io.inferbench.Text;
import io.inferbench.results.ProfileResult;

/**
 * A cell against this machine's measured roofs: achieved FLOP/s and bytes/s (the cell's p50 pass over its counted work),
 * each as a share of the measured peak, its arithmetic intensity against the ridge point, and a class by the rule in
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
     */
    public record Placed(Double flopsPerSecond, Double bytesPerSecond, Double flopsPercent, Double bytesPercent,
                         Double intensity, double floorShare, String rooflineClass, String reason) {
    }

    public static Placed place(Double flops, Double bytes, double passMs, double floorMs, ProfileResult.Calibration peaks,
                               ProfileResult.RooflineThresholds th) {
        double floorShare = Math.min(1, floorMs / passMs);
        if (flops == null || bytes == null) {
            boolean overhead = floorShare >= th.overheadMinShare();
            return new Placed(null, null, null, null, null, floorShare, overhead ? OVERHEAD : UNKNOWN, overhead
                    ? Text.f("the fixed cost per call (%.3f ms) is %.0f%% of the pass; the work is unknown", floorMs, 100 * floorShare)
                    : "the work of a pass is unknown for this model, so it cannot be placed against the peaks");
        }
        double seconds = passMs / 1e3;
        double flopRate = flops / seconds;
        double byteRate = bytes / seconds;
        double flopPct = 100 * flopRate / peaks.peakFlopsPerSecond();
        double bytePct = 100 * byteRate / peaks.peakBytesPerSecond();
        double intensity = flops / bytes;
        boolean flopsSound = flopPct <= th.maxOverPeakPercent();
        boolean bytesSound = bytePct <= th.maxOverPeakPercent();
        String bytesWithheld = bytesSound ? "" : Text.f("; the traffic figure is withheld: %.0f%% of the measured bandwidth, so "
                + "caches served traffic the model counts as memory (tolerance %.0f%%)", bytePct, th.maxOverPeakPercent());
        if (!flopsSound) {
            // The calibrated FLOP roof is below what this cell does: no class can rest on it. The traffic figure, if
            // sound, is kept.
            return new Placed(null, bytesSound ? byteRate : null, null, bytesSound ? bytePct : null, intensity, floorShare,
                    UNRELIABLE, Text.f("FLOP figures withheld: %.0f%% of the measured FLOP peak, so the calibration "
                    + "underestimates this engine's peak (tolerance %.0f%%)", flopPct, th.maxOverPeakPercent()) + bytesWithheld);
        }
        String rooflineClass;
        String reason;
        if (floorShare >= th.overheadMinShare()) {
            rooflineClass = OVERHEAD;
            reason = Text.f("the fixed cost per call (%.3f ms) is %.0f%% of the pass, at %.0f%% of the FLOP peak", floorMs,
                    100 * floorShare, flopPct) + (bytesSound ? Text.f(" and at most %.0f%% of the bandwidth", bytePct) : bytesWithheld);
        } else if (flopPct >= th.computeMinPercent()
                && (!bytesSound || flopPct / th.computeMinPercent() >= bytePct / th.memoryMinPercent())) {
            rooflineClass = COMPUTE;
            reason = Text.f("%.0f%% of the measured FLOP peak (intensity at least %.1f FLOP/byte, ridge %.1f)", flopPct, intensity,
                    peaks.ridgeFlopsPerByte()) + bytesWithheld;
        } else if (bytesSound && bytePct >= th.memoryMinPercent()) {
            rooflineClass = MEMORY;
            reason = Text.f("up to %.0f%% of the measured bandwidth (intensity at least %.1f FLOP/byte, below the ridge %.1f); the "
                    + "traffic counts every kernel's inputs and outputs as memory, an upper bound that caches can only lower, so "
                    + "this class rests on it", bytePct, intensity, peaks.ridgeFlopsPerByte());
        } else {
            rooflineClass = BETWEEN;
            reason = Text.f("%.0f%% of the FLOP peak%s: neither roof is near, and the fixed cost per call is %.0f%% of the pass; "
                    + "the kernels, not the hardware, set the pace", flopPct, bytesSound ? Text.f(" and at most %.0f%% of the "
                    + "bandwidth", bytePct) : "", 100 * floorShare) + bytesWithheld;
        }
        return new Placed(flopRate, bytesSound ? byteRate : null, flopPct, bytesSound ? bytePct : null, intensity, floorShare,
                rooflineClass, reason);
    }
}
