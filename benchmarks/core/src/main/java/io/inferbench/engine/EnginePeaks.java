package io.inferbench.engine;

/**
 * What this engine reaches on this device with these threads, timed here (see {@code calibrate} on each backend). Each
 * precision's products have their own roof: an int8 product on a CPU with VNNI, or a float16 one on tensor cores, runs
 * several times faster than a float32 one, so judging it against the float32 peak would call it impossible.
 *
 * @param flopsPerSecond      a large float32 matrix product ({@code 2 * n^3} FLOPs), median pass
 * @param bytesPerSecond      element-wise work over arrays far larger than the caches, bytes read and written per second
 * @param callFloorMs         a near-empty pass: the engine's fixed cost per call
 * @param method              the shapes, pass counts and graphs used, in words
 * @param integerOpsPerSecond a large uint8 x int8 matrix product with int32 accumulation ({@code MatMulInteger}, {@code 2 *
 *                            n^3} operations), median pass; null where this engine cannot run integer products
 * @param halfFlopsPerSecond  a large float16 matrix product, median pass; null where the device has no float16 kernels
 *                            (an engine's CPU build may run it in float32 through inserted casts)
 */
public record EnginePeaks(double flopsPerSecond, double bytesPerSecond, double callFloorMs, String method,
                          Double integerOpsPerSecond, Double halfFlopsPerSecond) {

    /** How long each of a calibration's measures runs unless the engine says otherwise, in seconds. */
    public static final double SECONDS_PER_MEASURE = 1.0;

    /** Peaks with the float32 roof only. */
    public EnginePeaks(double flopsPerSecond, double bytesPerSecond, double callFloorMs, String method) {
        this(flopsPerSecond, bytesPerSecond, callFloorMs, method, null, null);
    }
}
