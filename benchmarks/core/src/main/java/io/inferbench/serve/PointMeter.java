package io.inferbench.serve;

import io.inferbench.probe.CpuProbe;
import io.inferbench.probe.CpuUse;
import io.inferbench.probe.EnergyUse;
import io.inferbench.probe.GcPauses;
import io.inferbench.probe.GpuSampler;
import io.inferbench.probe.GpuUse;
import io.inferbench.probe.Probe;
import io.inferbench.probe.ProbeReading;
import io.inferbench.results.PointResources;

import java.util.List;
import java.util.Map;

/**
 * Reads what a load point costs besides time: the CPU ({@link CpuProbe}) and RAPL's energy before and after the point,
 * and on CUDA the GPU's samples during it ({@link GpuSampler}, its own process), and the JVM's garbage collections
 * that ended during it ({@link GcPauses}, from notifications). Nothing is read while requests are in flight, so the
 * point's latencies pay nothing for it.
 */
final class PointMeter {
    private final CpuProbe cpu;
    private final EnergyUse.Rapl rapl;
    private final GpuSampler gpu;
    private final List<Probe> probes;
    private final int cores;

    /** @param gpu the sampler of the GPU the points run on; null on the CPU */
    PointMeter(CpuProbe cpu, EnergyUse.Rapl rapl, GpuSampler gpu, int cores) {
        this(cpu, rapl, gpu, List.of(), cores);
    }

    /** @param probes read before and after each point, as {@code cpu} is ({@link Probe#all()}) */
    PointMeter(CpuProbe cpu, EnergyUse.Rapl rapl, GpuSampler gpu, List<Probe> probes, int cores) {
        this.probes = List.copyOf(probes);
        this.cpu = cpu;
        this.rapl = rapl;
        this.gpu = gpu;
        this.cores = cores;
    }

    /** The readings at a point's start. */
    record Start(long nanoTime, CpuProbe.Snapshot cpu, EnergyUse.Rapl.Reading energy, Map<Probe, Object> probes) {
    }

    Start start() {
        GcPauses.instance();
        CpuProbe.Snapshot snapshot = cpu.snapshot();
        EnergyUse.Rapl.Reading energy = rapl == null ? null : rapl.read();
        Map<Probe, Object> probed = Probe.startAll(probes);
        return new Start(System.nanoTime(), snapshot, energy, probed);
    }

    /** What the point cost from {@code start} to now, for {@code completed} requests of {@code samplesPerRequest} rows. */
    PointResources end(Start start, long completed, int samplesPerRequest) {
        long endNs = System.nanoTime();
        GcPauses.Summary gc = GcPauses.instance().listening() ? GcPauses.instance().between(start.nanoTime(), endNs) : null;
        double wallMs = (endNs - start.nanoTime()) / 1e6;
        EnergyUse energy = rapl == null ? null : rapl.between(start.energy(), rapl.read(), wallMs, completed, samplesPerRequest);
        CpuUse used = CpuProbe.between(start.cpu(), cpu.snapshot(), wallMs, cores, cores);
        Map<String, ProbeReading> probed = Probe.stopAll(start.probes(), new Probe.Window(wallMs, completed, samplesPerRequest));
        // Last: it may wait for nvidia-smi's sample past the end, which the readings above must not span.
        GpuUse gpuUsed = gpu == null ? null : gpu.use(start.nanoTime(), endNs, completed, samplesPerRequest);
        return new PointResources(wallMs, used.processCpuMs() == null ? null : used, energy, gpuUsed,
                energy == null ? null : energy.joulesPerPass(), gpuUsed == null ? null : gpuUsed.joulesPerPass(), gc, probed);
    }
}
