package io.inferbench.serve;

import io.inferbench.probe.CpuTime;
import io.inferbench.probe.CpuUse;
import io.inferbench.probe.EnergyUse;
import io.inferbench.probe.GcPauses;
import io.inferbench.probe.GcProbe;
import io.inferbench.probe.GpuSampler;
import io.inferbench.probe.GpuUse;
import io.inferbench.probe.Probe;
import io.inferbench.results.PointResources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads what a load point costs besides time: every {@link Probe} of the build (the CPU, RAPL's energy, the JVM's
 * collections, one's own) started before the point and stopped after it, and on CUDA the GPU's samples during it
 * ({@link GpuSampler}, its own process, stopped last). Nothing is read while requests are in flight, so the point's
 * latencies pay nothing for it.
 */
final class PointMeter {
    private final List<Probe<?>> probes;
    private final int cores;

    /**
     * @param probes {@link Probe#all()}, or a test's own
     * @param gpu    the sampler of the GPU the points run on; null on the CPU
     * @param cores  the machine's logical cores: a point's CPU use is a share of all of them (generator, batcher, workers
     *               and the engine's threads together)
     */
    PointMeter(List<Probe<?>> probes, GpuSampler gpu, int cores) {
        List<Probe<?>> all = new ArrayList<>(probes);
        if (gpu != null) {
            all.add(gpu);
        }
        this.probes = List.copyOf(all);
        this.cores = cores;
    }

    /** The readings at a point's start. */
    record Start(long nanoTime, Map<Probe<?>, Object> probes) {
    }

    Start start() {
        Map<Probe<?>, Object> started = Probe.startAll(probes);
        return new Start(System.nanoTime(), started);
    }

    /** What the point cost from {@code start} to now, for {@code completed} requests of {@code samplesPerRequest} rows. */
    PointResources end(Start start, long completed, int samplesPerRequest) {
        long endNs = System.nanoTime();
        Probe.Readings read = Probe.stopAll(start.probes(), new Probe.Window(start.nanoTime(), endNs, completed,
                samplesPerRequest, cores));
        EnergyUse energy = read.get(EnergyUse.Rapl.NAME, EnergyUse.class);
        GpuUse gpu = read.get(GpuSampler.NAME, GpuUse.class);
        return new PointResources((endNs - start.nanoTime()) / 1e6, read.get(CpuTime.NAME, CpuUse.class), energy, gpu,
                energy == null ? null : energy.joulesPerPass(), gpu == null ? null : gpu.joulesPerPass(),
                read.get(GcProbe.NAME, GcPauses.Summary.class), read.figures());
    }
}
