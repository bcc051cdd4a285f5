package io.inferbench.backend;

/**
 * What this engine reaches on this device with these threads, timed here (see {@code calibrate} on each backend):
 *
 * @param flopsPerSecond   a large float32 matrix product ({@code 2 * n^3} FLOPs), median pass
 * @param bytesPerSecond   element-wise work over arrays far larger than the caches, bytes read and written per second
 * @param callFloorMs      a near-empty pass: the engine's fixed cost per call
 * @param method           the shapes, pass counts and graphs used, in words
 */
public record EnginePeaks(double flopsPerSecond, double bytesPerSecond, double callFloorMs, String method) {
}
