package io.inferbench.report;

import io.inferbench.Text;
import io.inferbench.results.CellProfile;
import io.inferbench.results.ProfileResult;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** report.md's physics: measured peaks, each cell on the roofline, time per op type, and every verdict cross-checked. */
public final class ProfileReport {
    private ProfileReport() {
    }

    public static void section(Markdown md, ProfileResult p, List<Charts.ChartFile> charts, Path reportDir) {
        if (p == null) {
            return;
        }
        md.line("## Where the time goes: roofline and op profile").blank();
        if (p.calibrations().isEmpty() && p.floors().isEmpty() && p.cells().stream().allMatch(c -> c.flops() == null)) {
            // A run of a target's code alone: no peak, no floor, no work counted; tables of headers say nothing.
            md.line("Nothing of this run is placed on the roofline: "
                    + p.cells().stream().map(CellProfile::workNote).filter(java.util.Objects::nonNull)
                    .findFirst().orElse("no engine's peak was measured and no cell's work is known") + ".").blank();
            return;
        }
        md.line(Text.f("Peaks are measured here, with the same engine on the same device and thread count (cached per machine), "
                        + "one roof per precision of products: float32, int8 (uint8 x int8, int32 accumulation) where the engine runs "
                        + "integer products, float16 on CUDA; each cell's products are judged against their own precision's roof. "
                        + "Work per pass is counted from the shapes the kernels ran with; bytes use a simple traffic model (every "
                        + "kernel reads its inputs and writes its outputs once, from memory), so it is a ceiling where caches hold "
                        + "the activations. A model's fixed cost per call is its batch-1, seq-1 pass less what that pass's work needs at "
                        + "the roofs. Roofline rule: a figure over %.0f%% of a peak is withheld (unreliable); overhead-bound "
                        + "when the fixed cost per call is at least %.0f%% of the pass; compute-bound at %.0f%% of the FLOP peak or more; "
                        + "memory-bound at %.0f%% of the machine's memory roof or more; otherwise in between. The memory roof is "
                        + "the machine's, one for every engine: on the CPU an in-place add the harness runs itself over arrays "
                        + "several times the last-level cache, on a GPU its datasheet; each engine's own bandwidth figure stands "
                        + "beside it.",
                p.thresholds().maxOverPeakPercent(), 100 * p.thresholds().overheadMinShare(), p.thresholds().computeMinPercent(),
                p.thresholds().memoryMinPercent())).blank();
        md.header(new String[] {"backend", "device", "threads", "float32 peak GFLOP/s", "int8 roof GOP/s", "float16 roof GFLOP/s",
            "machine's memory roof GB/s", "engine's bandwidth GB/s (share of the roof)", "call floor (ms)", "ridge (FLOP/byte)",
            "datasheet", "how"}, false, false, true, true, true, true, true, true, true, true, false, false);
        for (ProfileResult.Calibration c : p.calibrations()) {
            ProfileResult.MachineRoof roof = c.machineRoof();
            md.row(c.backend(), c.device(), Integer.toString(c.intraOpThreads()), Text.f("%.1f", c.peakFlopsPerSecond() / 1e9),
                    opt(c.peakIntegerOpsPerSecond(), 1e9), opt(c.peakHalfFlopsPerSecond(), 1e9),
                    roof == null ? "-" : Text.f("%.1f (%s)", roof.bytesPerSecond() / 1e9, roof.source()),
                    Text.f("%.1f", c.peakBytesPerSecond() / 1e9) + (roof == null || roof.engineShareOfRoofPercent() == null ? ""
                            : Text.f(" (%.0f%%)", roof.engineShareOfRoofPercent())),
                    Text.f("%.4f", c.callFloorMs()), Text.f("%.1f", c.ridgeFlopsPerByte()),
                    c.datasheet() == null ? "-" : Text.f("%s: %.1f TFLOP/s FP32, %.0f TFLOP/s FP16 tensor, %.2f TB/s (%s)",
                            c.datasheet().gpu(), c.datasheet().fp32Tflops(), c.datasheet().fp16TensorTflops(),
                            c.datasheet().memoryTbPerSecond(), c.datasheet().source()), c.method() + "; " + c.cacheNote()
                            + (roof == null ? "" : "; the memory roof: " + roof.method() + " (" + roof.cacheNote() + ")"));
        }
        md.blank();
        for (ProfileResult.Calibration c : p.calibrations()) {
            if (c.machineRoof() != null && c.machineRoof().disagreement() != null) {
                md.line("- **" + c.backend() + " on " + c.device() + "**: " + c.machineRoof().disagreement() + ".");
            }
        }
        if (p.calibrations().stream().anyMatch(c -> c.machineRoof() != null && c.machineRoof().disagreement() != null)) {
            md.blank();
        }
        md.header(new String[] {"backend", "device", "model", "batch 1, seq 1 pass (ms)", "its work at the roofs (ms)",
            "fixed cost per call (ms)", "how"}, false, false, false, true, true, true, false);
        for (ProfileResult.ModelFloor f : p.floors()) {
            md.row(f.backend(), f.device(), Text.shortModelName(f.model()), f.passMs() == null ? "-" : Text.f("%.4f", f.passMs()),
                    f.workMs() == null ? "unknown" : Text.f("%.4f", f.workMs()), Text.f("%.4f", f.overheadMs()), f.method());
        }
        md.blank();
        md.line("### Verdicts, cross-checked").blank();
        for (ProfileResult.CrossCheck check : p.crossChecks()) {
            md.line("- **" + check.backend() + " | " + check.device() + " | " + Text.shortModelName(check.model()) + " | "
                    + Text.seq(check.seqLen()) + "**: slope " + check.slopeVerdict() + "; roofline by batch " + check.rooflineClassByBatch()
                    + ". " + check.explanation());
        }
        md.blank();
        md.line("### Cells").blank();
        md.header(new String[] {"backend", "device", "model", "seq", "batch", "GFLOP/pass", "MB/pass", "p50 (ms)", "GFLOP/s",
            "% FLOP roof", "FLOP roof G/s (work not float32)", "GB/s", "% memory roof (% engine's)", "FLOP/byte", "fixed cost share", "roofline",
            "top ops (share of the pass)", "on the CPU"},
                false, false, false, true, true, true, true, true, true, true, false, true, true, true, true, false, false, false);
        for (CellProfile c : p.cells()) {
            md.row(c.backend(), c.device(), Text.shortModelName(c.model()), Text.seqValue(c.seqLen()), Integer.toString(c.batch()),
                    c.flops() == null ? "unknown" : Text.f("%.3f", c.flops() / 1e9), c.bytes() == null ? "unknown" : Text.f("%.1f", c.bytes() / 1e6),
                    Text.f("%.3f", c.passMs()), opt(c.achievedFlopsPerSecond(), 1e9), pct(c.flopsPercentOfPeak()), roof(c),
                    opt(c.achievedBytesPerSecond(), 1e9), pct(c.bytesPercentOfPeak()) + (c.bytesPercentOfEngineRoof() == null ? ""
                            : " (" + pct(c.bytesPercentOfEngineRoof()) + ")"),
                    c.arithmeticIntensity() == null ? "-" : Text.f("%.1f", c.arithmeticIntensity()),
                    c.callFloorShare() == null ? "-" : Text.f("%.0f%%", 100 * c.callFloorShare()), c.rooflineClass(),
                    c.opShares().isEmpty() ? "n/a" : c.opShares().stream().limit(4)
                            .map(o -> Text.f("%s %.0f%%", o.opType(), o.sharePercent())).collect(Collectors.joining(", "))
                            + (c.opShares().get(0).launchTimes() ? " (of launch time: the device's own times were not profiled)" : ""),
                    c.cpuSharePercent() == null ? "-" : Text.f("%.1f%%: %s", c.cpuSharePercent(), c.cpuNodes()));
        }
        md.blank();
        for (Charts.ChartFile chart : charts) {
            md.line("![" + chart.title() + "](" + reportDir.relativize(chart.png()).toString().replace('\\', '/') + ")").blank();
        }
    }

    /** The cell's FLOP roof, with the shares of its work that are not float32 (int8 71%). */
    static String roof(CellProfile c) {
        if (c.roofFlopsPerSecond() == null) {
            return "-";
        }
        double total = c.flopsByPrecision() == null ? 0 : c.flopsByPrecision().values().stream().mapToDouble(Double::doubleValue).sum();
        String mix = total <= 0 ? "" : c.flopsByPrecision().entrySet().stream().filter(e -> !e.getKey().equals("fp32"))
                .map(e -> Text.f("%s %.0f%%", e.getKey(), 100 * e.getValue() / total)).collect(Collectors.joining(", "));
        return Text.f("%.1f", c.roofFlopsPerSecond() / 1e9) + (mix.isEmpty() ? "" : " (" + mix + ")");
    }

    private static String opt(Double value, double unit) {
        return value == null ? "-" : Text.f("%.1f", value / unit);
    }

    private static String pct(Double value) {
        return value == null ? "-" : Text.f("%.0f%%", value);
    }
}
