package io.inferbench.engine;

/**
 * How a session actually ran, as each cell records it: what the engine reports, not what was asked for.
 *
 * @param executionProvider the execution provider(s) or device that ran the passes, e.g. {@code CPUExecutionProvider}
 * @param intraOpThreads    the intra-op threads in effect
 * @param interOpThreads    the inter-op threads in effect
 * @param engineVersion     the native engine's version
 * @param engineFlavor      which build of the engine's natives: a CPU build, or a CUDA flavor
 * @param deviceUsed        the device in the engine's own words
 * @param outputHandling    how outputs are received and consumed inside the timed region
 */
public record SessionFacts(String executionProvider, int intraOpThreads, int interOpThreads, String engineVersion,
                           String engineFlavor, String deviceUsed, String outputHandling) {
}
