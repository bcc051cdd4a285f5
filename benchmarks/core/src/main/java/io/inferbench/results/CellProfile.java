package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.List;
import java.util.Map;

/**
 * One cell's physics. Its fields are grouped by concern (which cell, its work, what it achieved, its roof, the call
 * floor, the class, the op profile) and written flat, as they always were ({@link JsonUnwrapped}); an accessor per
 * field reads through the groups.
 *
 * @param bytesPercentOfEngineRoof the achieved traffic as a share of the engine's own bandwidth figure; null in runs
 *                                 before it
 */
@JsonPropertyOrder({"shape", "work", "achieved", "roof", "floor", "verdict", "ops", "bytesPercentOfEngineRoof"})
public record CellProfile(@JsonUnwrapped Shape shape, @JsonUnwrapped Work work, @JsonUnwrapped Achieved achieved,
                          @JsonUnwrapped Roof roof, @JsonUnwrapped Floor floor, @JsonUnwrapped Verdict verdict,
                          @JsonUnwrapped Ops ops, Double bytesPercentOfEngineRoof) {

    /** A group is never null (an absent one reads back as every field null, so it is written as one). */
    public CellProfile {
        work = work == null ? new Work(null, null, null, null) : work;
        roof = roof == null ? new Roof(null, null, null) : roof;
        floor = floor == null ? new Floor(null, null) : floor;
        verdict = verdict == null ? new Verdict(null, null) : verdict;
        ops = ops == null ? new Ops(null, null, null, null) : ops;
    }

    /** Which cell. */
    public record Shape(String backend, String device, String model, int seqLen, int batch) {
    }

    /**
     * One pass's work.
     *
     * @param flops            FLOPs of one pass, or null when unknown ({@code workNote} says why)
     * @param flopsByPrecision the FLOPs by the roof they run under ({@code fp32}, {@code int8}, {@code fp16}; integer
     *                         operations count as FLOPs); null when unknown
     * @param bytes            bytes moved by one pass under the traffic model, or null
     */
    public record Work(Double flops, Map<String, Double> flopsByPrecision, Double bytes, String workNote) {
    }

    /**
     * What the pass achieved.
     *
     * @param passMs             the cell's measured p50
     * @param flopsPercentOfPeak the achieved FLOP rate as a share of {@code roofFlopsPerSecond}
     * @param bytesPercentOfPeak the achieved traffic as a share of the machine's memory roof (of the engine's own
     *                           figure in runs before the machine's was measured)
     */
    public record Achieved(double passMs, Double achievedFlopsPerSecond, Double achievedBytesPerSecond,
                           Double flopsPercentOfPeak, Double bytesPercentOfPeak, Double arithmeticIntensity) {
    }

    /**
     * The cell's roof.
     *
     * @param roofFlopsPerSecond the FLOP roof of this cell's mix of work: its FLOPs over the time they need, each
     *                           precision's at its own measured roof (the float32 peak for float32 work); null when
     *                           the work is unknown
     * @param roofNote           which roofs made {@code roofFlopsPerSecond}; null for float32 work
     * @param ridgeFlopsPerByte  that roof over the memory roof ({@link ProfileResult.Calibration#memoryRoofBytesPerSecond})
     */
    public record Roof(Double roofFlopsPerSecond, String roofNote, Double ridgeFlopsPerByte) {
    }

    /**
     * @param callFloorMs    the model's fixed cost per call ({@link ProfileResult.ModelFloor#overheadMs})
     * @param callFloorShare {@code callFloorMs} over {@code passMs}
     */
    public record Floor(Double callFloorMs, Double callFloorShare) {
    }

    /** The roofline's class and why. */
    public record Verdict(String rooflineClass, String classReason) {
    }

    /**
     * The profiled pass.
     *
     * @param opShares op types by share of the profiled pass's kernel time, largest first
     * @param cpuNodes nodes that ran on the CPU in a CUDA session, with the CPU's share of the time
     */
    public record Ops(List<ProfileResult.OpShare> opShares, List<String> cpuNodes, Double cpuSharePercent, String profileNote) {
    }

    // Each group's fields, read through the group, as before the groups.

    public String backend() {
        return shape.backend();
    }

    public String device() {
        return shape.device();
    }

    public String model() {
        return shape.model();
    }

    public int seqLen() {
        return shape.seqLen();
    }

    public int batch() {
        return shape.batch();
    }

    public Double flops() {
        return work.flops();
    }

    public Map<String, Double> flopsByPrecision() {
        return work.flopsByPrecision();
    }

    public Double bytes() {
        return work.bytes();
    }

    public String workNote() {
        return work.workNote();
    }

    public double passMs() {
        return achieved.passMs();
    }

    public Double achievedFlopsPerSecond() {
        return achieved.achievedFlopsPerSecond();
    }

    public Double achievedBytesPerSecond() {
        return achieved.achievedBytesPerSecond();
    }

    public Double flopsPercentOfPeak() {
        return achieved.flopsPercentOfPeak();
    }

    public Double bytesPercentOfPeak() {
        return achieved.bytesPercentOfPeak();
    }

    public Double arithmeticIntensity() {
        return achieved.arithmeticIntensity();
    }

    public Double roofFlopsPerSecond() {
        return roof.roofFlopsPerSecond();
    }

    public String roofNote() {
        return roof.roofNote();
    }

    public Double ridgeFlopsPerByte() {
        return roof.ridgeFlopsPerByte();
    }

    public Double callFloorMs() {
        return floor.callFloorMs();
    }

    public Double callFloorShare() {
        return floor.callFloorShare();
    }

    public String rooflineClass() {
        return verdict.rooflineClass();
    }

    public String classReason() {
        return verdict.classReason();
    }

    public List<ProfileResult.OpShare> opShares() {
        return ops.opShares();
    }

    public List<String> cpuNodes() {
        return ops.cpuNodes();
    }

    public Double cpuSharePercent() {
        return ops.cpuSharePercent();
    }

    public String profileNote() {
        return ops.profileNote();
    }
}
