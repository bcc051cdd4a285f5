package io.inferbench.serve;

/**
 * What one model's serving points need: where they run, and how to predict them.
 *
 * @param executors      each worker's (or client's) runner of the model's passes
 * @param simulator      the queue simulator on the sweep's service times; null where the sweep cannot price them
 * @param rowsPerRequest rows one request carries
 * @param meter          each point's cost besides time
 */
record ServedModel(String backend, String device, String model, BatchExecutor.Factory executors, QueueSimulator simulator,
                   int rowsPerRequest, PointMeter meter) {
    /**
     * The simulator, where the sweep's cells price every batch the policy can form; null otherwise (one measured
     * batch size cannot price larger batches, see {@link ServiceTimes#canPrice}).
     */
    QueueSimulator simulatorFor(ServingPolicy policy) {
        if (simulator == null) {
            return null;
        }
        int rows = policy.maxBatch() * rowsPerRequest;
        if (!simulator.serviceTimes().canPrice(rows)
                || simulator.bySeq().values().stream().anyMatch(t -> !t.canPrice(rows))) {
            return null;
        }
        return simulator;
    }
}
