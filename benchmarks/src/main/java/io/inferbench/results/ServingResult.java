package io.inferbench.results;

import java.util.List;

/**
 * {@code run.json}'s {@code serving} section: requests under load against one loaded model, after the batch sweep of
 * the same run (schema 4).
 *
 * @param conditions what the load ran on and how: the shape of a request, the threads that compete on this machine
 * @param points     one entry per measured load point (fixed concurrency, open-loop rate, dynamic batching, and the
 *                   SLA search's steps)
 * @param slaBoundary per policy, the largest arrival rate whose p99 stayed at or under the SLA
 */
public record ServingResult(List<ServingConditions> conditions, List<LoadPointResult> points, List<SlaBoundary> slaBoundary) {

    /**
     * How requests were served for one engine, device and model.
     *
     * @param samplesPerRequest rows in one request's input ({@code bench.batch} when a single value is given, else 1)
     * @param sharing           what the worker threads share of the loaded model, and what each has of its own
     * @param cores             logical cores: generator, batcher, workers and the engine's own threads all compete for them
     */
    public record ServingConditions(String backend, String device, String model, String modelSha256, int seqLen,
                                    int samplesPerRequest, String arrivals, long seed, double pointSeconds,
                                    int intraOpThreads, int interOpThreads, int cores, String sharing, String note) {
    }
}
