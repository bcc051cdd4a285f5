package io.inferbench.generate;

import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;

import java.util.List;
import java.util.Map;

/**
 * What one generation fork JVM measures: one engine, device and decoder, its cells in the round's order
 * ({@link GenerationForkMain}). Written as JSON by the run, read by the fork.
 *
 * @param model     the model's name as the user gave it ({@code tiny-decoder}, or a file's path)
 * @param modelFile the file to load (the generated ONNX file for a built-in)
 * @param kvPairs   {@code -Dbench.kvPairs}, each {@code past:present}
 * @param cells     each cell as {@code [seqLen, batch]}, in the order to measure them
 */
public record GenerationJob(String backend, String device, String model, String modelFile, long seed, int intraOpThreads,
                            int interOpThreads, boolean allowCpuFallback, Map<String, Long> dims, List<String> kvPairs,
                            String nativeCacheDir, int newTokens, int round, List<int[]> cells, WarmupPolicy warmup,
                            StopPolicy stop) {

    /**
     * What the fork measured.
     *
     * @param provider        the execution provider or device that ran the passes
     * @param rssBytes        the fork's resident set with the model loaded, after its last cell
     * @param cells           one per cell, in the order measured
     */
    public record Result(String provider, long rssBytes, List<CellResult> cells) {
    }

    /**
     * One cell's generations in one fork. Histograms are HdrHistograms of nanoseconds ({@code HistogramCodec}).
     *
     * @param firstTokens the tokens of the first measured generation, {@code [batch][newTokens]}
     */
    public record CellResult(int seqLen, int batch, long warmupGenerations, String stop, long cacheBytes, long[][] firstTokens,
                             String ttft, String prefill, String step, String handOff, String total, List<String> byPosition) {
    }
}
