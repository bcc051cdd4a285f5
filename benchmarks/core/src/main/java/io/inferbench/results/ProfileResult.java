package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;
import java.util.Map;

/**
 * {@code run.json}'s {@code profile} section (schema 6): where the time goes and how close each cell comes to what
 * this machine can do, so that every batch-scaling verdict can be checked against physics, not only a slope.
 *
 * @param calibrations this machine's measured peaks, per engine, device and thread count (with datasheet peaks beside
 *                     them for known GPUs)
 * @param floors       per engine, device and model: the fixed cost of one call, which the overhead-bound rule uses
 * @param thresholds   the roofline rule's numbers
 * @param cells        per cell: work, achieved rates, roofline class, time per op type, what ran on the CPU
 * @param crossChecks  per series: the slope's verdict against the roofline and the op profile, and which evidence wins
 */
public record ProfileResult(List<Calibration> calibrations, List<ModelFloor> floors, RooflineThresholds thresholds,
                            List<CellProfile> cells, List<CrossCheck> crossChecks) {

    /**
     * This machine's measured peaks for one engine, device and thread count, and where they came from. The peaks are a
     * group, written flat as they always were ({@link JsonUnwrapped}); an accessor per field reads through it.
     *
     * @param cacheNote                  where the peaks came from: measured now (and cached where), or read from the cache
     * @param datasheet                  the GPU's published peaks, when it is one this harness knows; null otherwise
     * @param cacheFile                  the cache file's name (its key: engine, device, threads, hardware, measures); null
     *                                   in runs before it was recorded
     * @param replacedPeakFlopsPerSecond the FLOP peak the cache held before this run's re-check beat it and calibrated
     *                                   again; null when the cache was read as it was, or there was none. A run measured
     *                                   earlier on this machine carries exactly that peak: {@code compare} knows the two
     *                                   from it as one machine whose calibration was corrected, not two rulers
     * @param machineRoof                the device's memory roof, measured by the harness itself (the CPU) or from the
     *                                   datasheet (a GPU): what every cell's traffic is placed against; null in runs
     *                                   before it was measured, which used the engine's own figure
     */
    @JsonPropertyOrder({"backend", "device", "intraOpThreads", "peaks", "method", "cacheNote", "datasheet", "cacheFile",
            "replacedPeakFlopsPerSecond", "machineRoof"})
    public record Calibration(String backend, String device, int intraOpThreads, @JsonUnwrapped Peaks peaks,
            String method,
                              String cacheNote, Datasheet datasheet, String cacheFile, Double replacedPeakFlopsPerSecond,
                              MachineRoof machineRoof) {

        /**
         * The roofs.
         *
         * @param peakFlopsPerSecond      the float32 roof: a large float32 matrix product
         * @param peakBytesPerSecond      the engine's own bandwidth figure: its kernel over arrays larger than the caches,
         *                                the bytes counted as its method says; beside the machine's roof, not the roof
         *                                itself
         * @param callFloorMs             the fixed cost of one call of the engine
         * @param ridgeFlopsPerByte       the float32 roof over the memory roof ({@link #memoryRoofBytesPerSecond})
         * @param peakIntegerOpsPerSecond the int8 roof: a large uint8 x int8 product with int32 accumulation; null where
         *                                the engine runs no integer products (then int8 work is judged against the float32
         *                                roof, and the cell's reason says so)
         * @param peakHalfFlopsPerSecond  the float16 roof: a large float16 product; null where the device has no float16
         *                                kernels
         */
        public record Peaks(double peakFlopsPerSecond, double peakBytesPerSecond, double callFloorMs,
                            double ridgeFlopsPerByte, Double peakIntegerOpsPerSecond, Double peakHalfFlopsPerSecond) {
        }

        public Calibration(String backend, String device, int intraOpThreads, Peaks peaks, String method,
                String cacheNote,
                           Datasheet datasheet, String cacheFile, Double replacedPeakFlopsPerSecond) {
            this(backend, device, intraOpThreads, peaks, method, cacheNote, datasheet, cacheFile,
                    replacedPeakFlopsPerSecond,
                    null);
        }

        public Calibration(String backend, String device, int intraOpThreads, Peaks peaks, String method,
                String cacheNote,
                           Datasheet datasheet) {
            this(backend, device, intraOpThreads, peaks, method, cacheNote, datasheet, null, null);
        }

        /** The measured roof of products in {@code precision} ({@code fp32}, {@code int8}, {@code fp16}); null when not measured. */
        public Double roof(String precision) {
            return switch (precision) {
                case "int8" -> peakIntegerOpsPerSecond();
                case "fp16" -> peakHalfFlopsPerSecond();
                default -> peakFlopsPerSecond();
            };
        }

        public Calibration withDatasheet(Datasheet sheet) {
            return new Calibration(backend, device, intraOpThreads, peaks, method, cacheNote, sheet, cacheFile,
                    replacedPeakFlopsPerSecond, machineRoof);
        }

        /** These peaks placed against the device's memory roof: the ridge moves to it, and the engine's share is kept. */
        public Calibration withMachineRoof(MachineRoof roof) {
            return new Calibration(backend, device, intraOpThreads, new Peaks(peakFlopsPerSecond(),
                    peakBytesPerSecond(),
                    callFloorMs(), peakFlopsPerSecond() / roof.bytesPerSecond(), peakIntegerOpsPerSecond(),
                    peakHalfFlopsPerSecond()), method, cacheNote, datasheet, cacheFile, replacedPeakFlopsPerSecond,
                    roof.sharedBy(peakBytesPerSecond()));
        }

        /** The memory roof cells are judged against: the machine's, or the engine's own figure in runs before it. */
        @com.fasterxml.jackson.annotation.JsonIgnore
        public double memoryRoofBytesPerSecond() {
            return machineRoof == null ? peakBytesPerSecond() : machineRoof.bytesPerSecond();
        }

        // The peaks' fields, read through the group, as before the group.

        public double peakFlopsPerSecond() {
            return peaks.peakFlopsPerSecond();
        }

        public double peakBytesPerSecond() {
            return peaks.peakBytesPerSecond();
        }

        public double callFloorMs() {
            return peaks.callFloorMs();
        }

        public double ridgeFlopsPerByte() {
            return peaks.ridgeFlopsPerByte();
        }

        public Double peakIntegerOpsPerSecond() {
            return peaks.peakIntegerOpsPerSecond();
        }

        public Double peakHalfFlopsPerSecond() {
            return peaks.peakHalfFlopsPerSecond();
        }
    }

    /**
     * A device's memory roof: on the CPU a STREAM-style in-place kernel the harness runs itself
     * ({@code io.inferbench.roofline.MachineBandwidth}), on a GPU the datasheet's memory bandwidth.
     *
     * @param bytesPerSecond               the roof
     * @param source                       {@code measured} or {@code datasheet}
     * @param method                       the kernel, its sizes and the bytes counted, or the datasheet row
     * @param cacheNote                    where it came from: measured now, or read from the cache
     * @param engineShareOfRoofPercent     the engine's own bandwidth figure as a share of this roof
     * @param disagreement                 when the engine's figure and the roof differ by more than
     *                                     {@link #DISAGREEMENT_PERCENT}%, both figures and which one judges the cells;
     *                                     null when they agree
     */
    public record MachineRoof(double bytesPerSecond, String source, String method, String cacheNote,
                              Double engineShareOfRoofPercent, String disagreement) {
        /** How far apart an engine's figure and the machine's roof may be before the run says so. */
        public static final double DISAGREEMENT_PERCENT = 25;

        /** This roof as an engine whose own figure is {@code engineBytesPerSecond} sees it. */
        public MachineRoof sharedBy(double engineBytesPerSecond) {
            double share = 100 * engineBytesPerSecond / bytesPerSecond;
            String apart = Math.abs(share - 100) <= DISAGREEMENT_PERCENT ? null : io.inferbench.Text.f(
                    "the engine's own bandwidth figure (%.1f GB/s) is %.0f%% of the machine's memory roof (%.1f GB/s, %s): "
                            + "every cell's traffic is placed against the machine's roof, and the engine's figure is kept beside it",
                    engineBytesPerSecond / 1e9, share, bytesPerSecond / 1e9, source);
            return new MachineRoof(bytesPerSecond, source, method, cacheNote, share, apart);
        }
    }

    /**
     * A model's fixed cost per call on one engine and device: the median of passes at batch 1, seq 1 (almost no
     * activations), less the time that pass's own work needs at the measured roofs (the larger of its FLOPs over the FLOP
     * peak and its bytes over the bandwidth; the traffic model is a ceiling, so this under-states the overhead rather
     * than over-stating it), and never below the engine's near-empty-call floor. For an op-by-op engine (one that runs a built-in's ops one call each)
     * this is where the per-op dispatch shows; for a fused graph it is close to the engine's floor.
     *
     * @param passMs     the median batch-1, seq-1 pass; null when the model cannot take that shape ({@code method} says why)
     * @param workMs     what that pass's work needs at the roofs; null when its work is unknown (then the whole pass counts)
     * @param overheadMs the fixed cost per call the rule uses
     */
    public record ModelFloor(String backend, String device, String model, Double passMs, Double workMs, double overheadMs,
                             String method) {
    }

    /** A GPU's published peaks, from {@code gpu-datasheets.csv}. */
    public record Datasheet(String gpu, double fp32Tflops, double fp16TensorTflops, double memoryTbPerSecond, String source) {
    }

    /**
     * The rule, in order: a figure above {@code maxOverPeakPercent} of a measured peak makes the class
     * {@code unreliable} (the figure is withheld); {@code overhead-bound} when the model's fixed cost per call
     * ({@link ModelFloor}) is at least
     * {@code overheadMinShare} of the pass; {@code compute-bound} at or above {@code computeMinPercent} of the FLOP peak;
     * {@code memory-bound} at or above {@code memoryMinPercent} of the machine's memory roof; otherwise {@code in between}.
     */
    public record RooflineThresholds(double computeMinPercent, double memoryMinPercent, double overheadMinShare,
                                     double maxOverPeakPercent) {
        public static final RooflineThresholds DEFAULTS = new RooflineThresholds(50, 50, 0.5, 110);
    }

    /**
     * An op type's part of a pass: its share of the kernel time, its kernels, and its own rate where it computes.
     *
     * @param flopsPercentOfPeak its FLOP rate as a share of its precision's measured roof; null when it computes nothing, or when the
     *                           rate is withheld for passing the peak by more than the tolerance ({@code rateWithheld}),
     *                           or when the times are launches ({@code launchTimes})
     * @param launchTimes        the trace's device times are the CPU side of asynchronous launches, not device time
     *                           (a profiler without CUDA profiling): the share is of launch time, and no rate is given
     */
    public record OpShare(String opType, double sharePercent, int kernels, Double flopsPercentOfPeak, boolean rateWithheld,
                          boolean launchTimes) {
    }

    /**
     * A series' verdicts side by side and the explanation of which to believe.
     *
     * @param answer where the slope and the roofline disagree, the one sentence report.md's answer line gives: the
     *               bottleneck and the remedy; null where they agree (or there is no roofline to disagree with)
     */
    public record CrossCheck(String backend, String device, String model, int seqLen, String slopeVerdict,
                             Map<Integer, String> rooflineClassByBatch, String explanation, String answer) {
        public CrossCheck(String backend, String device, String model, int seqLen, String slopeVerdict,
                          Map<Integer, String> rooflineClassByBatch, String explanation) {
            this(backend, device, model, seqLen, slopeVerdict, rooflineClassByBatch, explanation, null);
        }
    }
}
