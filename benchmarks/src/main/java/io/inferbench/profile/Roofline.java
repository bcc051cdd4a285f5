package io.inferbench.profile;

import io.inferbench.Text;
import io.inferbench.results.ProfileResult;

/**
 * A cell against this machine's measured roofs: achieved FLOP/s and bytes/s (the cell's p50 pass over its counted work),
 * each as a share of the measured peak, its arithmetic intensity against the ridge point, and a class by the rule in
 * {@link ProfileResult.RooflineThresholds}. A share above the tolerance over 100% is not printed: the calibration (or,
 * for bytes, the traffic model, which ignores the caches) is wrong for that cell, and the class says so.
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
        if (flopPct > th.maxOverPeakPercent() || bytePct > th.maxOverPeakPercent()) {
            String which = flopPct > th.maxOverPeakPercent()
                    ? Text.f("%.0f%% of the measured FLOP peak: the calibration underestimates this engine's peak", flopPct)
                    : Text.f("%.0f%% of the measured bandwidth: the traffic was served by caches, which the traffic model counts "
                    + "as memory, or the calibration is wrong", bytePct);
            return new Placed(null, null, null, null, intensity, floorShare, UNRELIABLE, "figures withheld: " + which
                    + Text.f(" (tolerance %.0f%%)", th.maxOverPeakPercent()));
        }
        String rooflineClass;
        String reason;
        if (floorShare >= th.overheadMinShare()) {
            rooflineClass = OVERHEAD;
            reason = Text.f("the fixed cost per call (%.3f ms) is %.0f%% of the pass, at %.0f%% of the FLOP peak and %.0f%% of the "
                    + "bandwidth", floorMs, 100 * floorShare, flopPct, bytePct);
        } else if (flopPct >= th.computeMinPercent() && flopPct / th.computeMinPercent() >= bytePct / th.memoryMinPercent()) {
            rooflineClass = COMPUTE;
            reason = Text.f("%.0f%% of the measured FLOP peak (intensity %.1f FLOP/byte, ridge %.1f)", flopPct, intensity,
                    peaks.ridgeFlopsPerByte());
        } else if (bytePct >= th.memoryMinPercent()) {
            rooflineClass = MEMORY;
            reason = Text.f("%.0f%% of the measured bandwidth (intensity %.1f FLOP/byte, below the ridge %.1f)", bytePct, intensity,
                    peaks.ridgeFlopsPerByte());
        } else {
            rooflineClass = BETWEEN;
            reason = Text.f("%.0f%% of the FLOP peak and %.0f%% of the bandwidth: neither roof is near, and the fixed cost per call is "
                    + "%.0f%% of the pass; the kernels, not the hardware, set the pace", flopPct, bytePct, 100 * floorShare);
        }
        return new Placed(flopRate, byteRate, flopPct, bytePct, intensity, floorShare, rooflineClass, reason);
    }
}
