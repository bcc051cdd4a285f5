package io.inferbench.measure;

import io.inferbench.probe.CpuTime;
import io.inferbench.probe.CpuUse;
import io.inferbench.probe.EnergyUse;
import io.inferbench.probe.GcPauses;
import io.inferbench.probe.GcProbe;
import io.inferbench.probe.GpuSampler;
import io.inferbench.probe.GpuUse;
import io.inferbench.probe.Probe;
import io.inferbench.probe.ProbeReading;

import java.util.List;
import java.util.Map;

/**
 * How one cell's measurement went in one fork.
 *
 * @param passes              measured passes
 * @param wallMs              wall time of the measurement, passes and the rule's checks between them
 * @param passesMs            the exact sum of the measured passes' latencies: the timed part of {@code wallMs}
 * @param compileMs           JIT compilation during it, summed over compiler threads; null where the JVM does not report it
 * @param p50HalfWidthPercent the half-width of the p50's distribution-free interval at the stop, in percent of the p50;
 *                            null with fewer than 6 passes (no interval exists)
 * @param confidence          that interval's confidence level
 * @param end                 why it stopped
 * @param cpu                 where the CPU went meanwhile ({@link CpuProbe}); null where not read
 * @param energy              the energy of the measured passes, or why it is not available ({@link EnergyUse}); null
 *                            where not read
 * @param gpu                 what the GPU did meanwhile ({@link GpuSampler}), or why that is not known; null on the CPU
 * @param gc                  the JVM's garbage collections that began and ended during the measured passes
 *                            ({@link GcProbe}): a young collection stops the measuring thread, so its pause is in a
 *                            pass; null where not read (the JVM sends no notifications, or a run before them)
 * @param setAside            earlier measurements of the cell in this fork that were set aside because other processes
 *                            took more than {@link CellLoop#DISTURBED_PERCENT} of the machine meanwhile; null when none
 * @param probes              what each other {@link Probe} of the build (one of one's own) read over the measured
 *                            passes, by its name; null where none ran
 */
public record MeasureOutcome(long passes, double wallMs, double passesMs, Double compileMs, Double p50HalfWidthPercent,
                             double confidence, MeasureEnd end, CpuUse cpu, EnergyUse energy, GpuUse gpu,
                             GcPauses.Summary gc, List<SetAside> setAside, Map<String, ProbeReading> probes) {

    /** As recorded before probes were: none read but these. */
    public MeasureOutcome(long passes, double wallMs, double passesMs, Double compileMs, Double p50HalfWidthPercent,
                          double confidence, MeasureEnd end, CpuUse cpu, EnergyUse energy, GpuUse gpu,
                          List<SetAside> setAside) {
        this(passes, wallMs, passesMs, compileMs, p50HalfWidthPercent, confidence, end, cpu, energy, gpu, null, setAside,
                null);
    }

    /** A measurement with what the probes read over it: each built-in reading in its place, the others in {@code probes}. */
    public static MeasureOutcome of(long passes, double wallMs, double passesMs, Double compileMs, Double p50HalfWidthPercent,
                                    double confidence, MeasureEnd end, Probe.Readings read) {
        return new MeasureOutcome(passes, wallMs, passesMs, compileMs, p50HalfWidthPercent, confidence, end,
                read.get(CpuTime.NAME, CpuUse.class), read.get(EnergyUse.Rapl.NAME, EnergyUse.class),
                read.get(GpuSampler.NAME, GpuUse.class), read.get(GcProbe.NAME, GcPauses.Summary.class), null, read.figures());
    }

    public MeasureOutcome withGpu(GpuUse used) {
        return new MeasureOutcome(passes, wallMs, passesMs, compileMs, p50HalfWidthPercent, confidence, end, cpu, energy, used,
                gc, setAside, probes);
    }

    public MeasureOutcome withSetAside(List<SetAside> earlier) {
        return new MeasureOutcome(passes, wallMs, passesMs, compileMs, p50HalfWidthPercent, confidence, end, cpu, energy, gpu,
                gc, earlier, probes);
    }
}
