package io.inferbench.serve;

import io.inferbench.engine.TokenBatch;

import java.util.List;
import java.util.Map;

/**
 * The ablation's no-op engine: everything a worker does but the model. {@link #prepare} builds the batch's host inputs
 * as a real executor does ({@link HostBatches}, tokenizing included); {@link #forward} does nothing; {@link #fetch} hands
 * each request a zeroed output of the size the real model's first output has for that many rows, as a real fetch does.
 * What a load on it measures is the harness and the serving path alone: the generator, the queue, the hand-offs between
 * threads, the host inputs and the outputs' split.
 */
final class NoopExecutor implements BatchExecutor {
    private final HostBatches batches;
    private final Map<Integer, Integer> outputFloatsPerRowBySeq;
    private TokenBatch prepared;
    private long sink;

    /**
     * @param outputFloatsPerRowBySeq the real model's first output, floats per input row, at each sequence length a batch
     *                                can have (from one real pass at each)
     */
    NoopExecutor(HostBatches batches, Map<Integer, Integer> outputFloatsPerRowBySeq) {
        this.batches = batches;
        this.outputFloatsPerRowBySeq = Map.copyOf(outputFloatsPerRowBySeq);
    }

    @Override
    public void prepare(List<Request> batch) {
        prepared = batches.build(batch);
    }

    @Override
    public void forward() {
        if (prepared == null) {
            throw new IllegalStateException("prepare() must be called before forward()");
        }
        sink += prepared.tokenIds().length;
    }

    @Override
    public void fetch(List<Request> batch) {
        Integer perRow = outputFloatsPerRowBySeq.get(prepared.seqLen());
        if (perRow == null) {
            throw new IllegalStateException("no output size was probed at seq " + prepared.seqLen() + ", only at "
                    + outputFloatsPerRowBySeq.keySet());
        }
        sink += SessionExecutor.splitPerRequest(new float[prepared.batch() * perRow], batch.size());
    }

    @Override
    public void close() {
        prepared = null;
    }
}
