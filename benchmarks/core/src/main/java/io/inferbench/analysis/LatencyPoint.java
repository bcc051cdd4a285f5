package io.inferbench.analysis;

/**
 * One measured cell as the analysis sees it: a plain record, so the analysis runs on a {@code run.json} from any
 * machine, with no engine on the classpath.
 *
 * @param cv coefficient of variation of the cell's passes (stdev / mean), a noise indicator
 */
public record LatencyPoint(String backend, String device, String model, int seqLen, int batch,
                           double p50Ms, double p90Ms, double p99Ms, double samplesPerSecond, double cv) {
}
