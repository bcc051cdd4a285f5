package io.inferbench.sweep;

import java.util.ArrayList;
import java.util.List;

/** One point of the sweep. These five values are exactly the JMH {@code @Param}s of the benchmark. */
public record Cell(String backend, String device, String model, int seqLen, int batch) {

    public String id() {
        return backend + "/" + device + "/" + model + "/seq" + seqLen + "/batch" + batch;
    }

    /** Sweep order: backend, device, model, then seq bucket, then batch (so each batch-scaling series runs together). */
    public static List<Cell> plan(SweepOptions options) {
        List<Cell> cells = new ArrayList<>();
        for (String backend : options.backends()) {
            for (String device : options.devices()) {
                for (String model : options.models()) {
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
}
