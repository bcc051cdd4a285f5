package io.inferbench.serve;

/**
 * One request's life, in {@code System.nanoTime} nanoseconds: written by the generator (intended, sent), then by the
 * worker that served it (batch start, stage ends, done). A request is complete when {@code doneNs > 0}, failed when
 * {@code error} is set; the run's end makes every unfinished one failed, so sent is always completed plus failed.
 *
 * <p>Fields are written by one thread at a time and handed over through the queue's lock (and the workers' join at the
 * end), which orders them.
 */
public final class Request {
    final int index;
    final long intendedNs;
    long sentNs;
    /** When the worker that served it became free and asked for a batch (0 for closed-loop requests). */
    long workerReadyNs;
    long batchStartNs;
    long prepareNs;
    long forwardNs;
    long fetchNs;
    long doneNs;
    int batchSize;
    String error;
    /**
     * The drain limit, for a request still unfinished when it passed (0 otherwise): its latency is at least this minus
     * {@link #intendedNs}, and is counted as that.
     */
    long cutOffNs;
    /** Which request of the workload this is, or -1 without a workload. */
    final int workloadIndex;
    /** Time spent tokenizing this request's text (text workloads), inside its batch's prepare. */
    long tokenizeNs;
    /**
     * Time its batch spent tokenizing, every member's text one after the other (text workloads): the request waits for
     * all of it, not only its own.
     */
    long batchTokenizeNs;
    /** The parts of its batch's forward pass its session marked itself (a target's stages), by name; empty for an engine. */
    java.util.Map<String, Long> forwardPartsNs = java.util.Map.of();

    Request(int index, long intendedNs) {
        this(index, intendedNs, -1);
    }

    Request(int index, long intendedNs, int workloadIndex) {
        this.index = index;
        this.intendedNs = intendedNs;
        this.workloadIndex = workloadIndex;
    }

    boolean completed() {
        return doneNs > 0 && error == null;
    }

    /**
     * A completed request's time from intended start to result, in parts that add up to it exactly (nanoseconds):
     * <ul>
     *   <li>{@code generatorLag}: sent minus intended;</li>
     *   <li>{@code workerWait}: from sent until the worker that served it was free (0 if it already was);</li>
     *   <li>{@code batcherHold}: from then until its batch started (the batcher waiting for more requests);</li>
     *   <li>{@code tokenize}: the batch's tokenization, every member's (text workloads only);</li>
     *   <li>{@code prepare}, {@code forward}, {@code fetch}: the batch's stages.</li>
     * </ul>
     */
    java.util.Map<String, Long> stagesNs(boolean tokenized) {
        long freeNs = Math.min(Math.max(workerReadyNs, sentNs), batchStartNs);
        java.util.Map<String, Long> stages = new java.util.LinkedHashMap<>();
        stages.put("generatorLag", sentNs - intendedNs);
        stages.put("workerWait", freeNs - sentNs);
        stages.put("batcherHold", batchStartNs - freeNs);
        if (tokenized) {
            stages.put("tokenize", batchTokenizeNs);
        }
        stages.put("prepare", prepareNs);
        stages.put("forward", forwardNs);
        stages.put("fetch", fetchNs);
        return stages;
    }

    /**
     * The parts of the forward pass its session marked itself, as {@code forward.NAME}, then {@code forward.}{@value
     * #OUTSIDE_STAGES}: the pass less every part, so they add up to {@code forward}. Empty for an engine's pass.
     */
    java.util.Map<String, Long> forwardPartsNs() {
        java.util.Map<String, Long> parts = new java.util.LinkedHashMap<>();
        if (forwardPartsNs.isEmpty()) {
            return parts;
        }
        long marked = 0;
        for (java.util.Map.Entry<String, Long> part : forwardPartsNs.entrySet()) {
            parts.put("forward." + part.getKey(), part.getValue());
            marked += part.getValue();
        }
        parts.put("forward." + OUTSIDE_STAGES, Math.max(0, forwardNs - marked));
        return parts;
    }

    /** The part of a target's call outside every stage it marked. */
    static final String OUTSIDE_STAGES = "(outside any stage)";
}
