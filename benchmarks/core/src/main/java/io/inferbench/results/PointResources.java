package io.inferbench.results;

import io.inferbench.probe.CpuUse;
import io.inferbench.probe.EnergyUse;
import io.inferbench.probe.GcPauses;
import io.inferbench.probe.GpuUse;
import io.inferbench.probe.ProbeReading;

import java.util.Map;

/**
 * What one serving load point cost besides time, read before and after it (the GPU sampled during it), never between
 * its requests.
 *
 * @param wallMs              from the point's start to its last result (or drain limit)
 * @param cpu                 where the CPU went meanwhile; its {@code utilisationPercent} is against every core (100% = the
 *                            whole machine busy with this process: generator, batcher, workers and the engine's threads)
 * @param energy              RAPL's package energy meanwhile, or why there is none; its {@code joulesPerPass} is per
 *                            completed request
 * @param gpu                 on CUDA, what nvidia-smi sampled meanwhile, or why not; its {@code joulesPerPass} is per
 *                            completed request; null on the CPU
 * @param cpuJoulesPerRequest RAPL package joules per completed request; null where not available
 * @param gpuJoulesPerRequest GPU board joules per completed request (mean sampled power times the point's time); null
 *                            where not sampled
 * @param gc                  the JVM's garbage collections that started and ended within the point: a young collection
 *                            stops the generator and any worker in Java code, so its pause shows in the point's tail;
 *                            null where the JVM sends no GC notifications
 * @param probes              what each {@link io.inferbench.probe.Probe} of the build read over the point, by its name
 *                            (its passes are the completed requests); null where none ran
 */
public record PointResources(double wallMs, CpuUse cpu, EnergyUse energy, GpuUse gpu, Double cpuJoulesPerRequest,
                             Double gpuJoulesPerRequest, GcPauses.Summary gc, Map<String, ProbeReading> probes) {
    public PointResources(double wallMs, CpuUse cpu, EnergyUse energy, GpuUse gpu, Double cpuJoulesPerRequest,
                          Double gpuJoulesPerRequest) {
        this(wallMs, cpu, energy, gpu, cpuJoulesPerRequest, gpuJoulesPerRequest, null, null);
    }
}
