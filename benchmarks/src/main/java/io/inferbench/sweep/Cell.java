package io.inferbench.sweep;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.Engines;
import io.inferbench.model.ModelSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

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
        for (String backend : options.plan().backends()) {
            for (String device : options.plan().devices()) {
                for (String model : options.plan().models()) {
                    if (!Engines.canLoad(backend, ModelSource.parse(model))) {
                        continue;
                    }
                    for (int seq : options.plan().seqLens()) {
                        for (int batch : options.plan().batches()) {
                            cells.add(new Cell(backend, device, model, seq, batch));
                        }
                    }
                }
            }
        }
        return List.copyOf(cells);
    }

    /**
     * The cells that one fork JVM runs in a round, in plan order: every cell of one engine, device and model together
     * ({@link Isolation#MODEL}), or each cell alone ({@link Isolation#CELL}).
     */
    public static List<List<Cell>> groups(List<Cell> plan, Isolation isolation) {
        if (isolation == Isolation.CELL) {
            return plan.stream().map(List::of).toList();
        }
        Map<SeriesKey.EngineModel, List<Cell>> groups = new LinkedHashMap<>();
        for (Cell cell : plan) {
            groups.computeIfAbsent(cell.series().engineModel(), k -> new ArrayList<>()).add(cell);
        }
        return groups.values().stream().map(List::copyOf).toList();
    }

    /**
     * The order a fork JVM runs {@code cells} in, in fork round {@code round}: a shuffle seeded by the run's seed, the
     * round and the group's engine, device and model. The same run settings always give the same orders, and the rounds
     * of one group get different ones, so that what a cell inherits from the cells before it in a JVM (allocator state,
     * caches, the JIT's choices) differs from fork to fork and shows in their spread instead of biasing every fork alike.
     */
    public static List<Cell> order(List<Cell> cells, long seed, int round) {
        List<Cell> order = new ArrayList<>(cells);
        if (order.size() > 1) {
            Cell first = cells.get(0);
            Collections.shuffle(order, new Random(Objects.hash(seed, round, first.backend(), first.device(), first.model())));
        }
        return List.copyOf(order);
    }

    /**
     * The (backend, model) pairs left out of the plan because the engine cannot load that format, with the reason; and the
     * default engines left out because they cannot run on the devices asked for ({@link SweepOptions.Plan#leftOut}).
     */
    public static List<String> skipped(SweepOptions options) {
        List<String> skipped = new ArrayList<>(options.plan().leftOut());
        for (String backend : options.plan().backends()) {
            for (String model : options.plan().models()) {
                String why = Engines.whyNot(backend, ModelSource.parse(model));
                if (why != null) {
                    skipped.add(backend + " x " + model + " (" + why + ")");
                }
            }
        }
        return List.copyOf(skipped);
    }
}
