package io.inferbench.sweep;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.backend.Backends;
import io.inferbench.model.ModelSource;

import java.util.ArrayList;
import java.util.List;

/** One point of the sweep. These five values are exactly the JMH {@code @Param}s of the benchmark. */
public record Cell(String backend, String device, String model, int seqLen, int batch) {

    public SeriesKey series() {
        return new SeriesKey(backend, device, model, seqLen);
    }

    /** backend/device/model/seqN/batchN, the same id as the cell's result. */
    public String id() {
        return series().cellId(batch);
    }

    /**
     * Sweep order: backend, device, model, then seq bucket, then batch (so each batch-scaling series runs together).
     * A (backend, model) pair whose engine cannot load the model's format is not planned; see {@link #skipped}.
     */
    public static List<Cell> plan(SweepOptions options) {
        List<Cell> cells = new ArrayList<>();
        for (String backend : options.backends()) {
            for (String device : options.devices()) {
                for (String model : options.models()) {
                    if (!Backends.canLoad(backend, ModelSource.parse(model))) {
                        continue;
                    }
                    for (int seq : options.seqLens()) {
                        for (int batch : options.batches()) {
                            cells.add(new Cell(backend, device, model, seq, batch));
                        }
                    }
                }
            }
        }
        return List.copyOf(cells);
    }

    /** The (backend, model) pairs left out of the plan because the engine cannot load that format, with the reason. */
    public static List<String> skipped(SweepOptions options) {
        List<String> skipped = new ArrayList<>();
        for (String backend : options.backends()) {
            for (String model : options.models()) {
                String why = Backends.whyNot(backend, ModelSource.parse(model));
                if (why != null) {
                    skipped.add(backend + " x " + model + " (" + why + ")");
                }
            }
        }
        return List.copyOf(skipped);
    }
}
