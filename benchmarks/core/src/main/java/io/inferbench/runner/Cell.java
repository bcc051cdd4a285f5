package io.inferbench.runner;

import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.Pairing;
import io.inferbench.engine.Pairings;

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
     * Plan order: backend, device, model (as {@link Pairings} pairs them: a pairing whose engine does not open the model
     * for {@code kind} is not planned; see {@link #skipped}), then seq bucket, then batch (so each batch-scaling series
     * runs together).
     */
    public static List<Cell> plan(SweepOptions options, CellKind kind) {
        List<Cell> cells = new ArrayList<>();
        for (Pairing pairing : pairings(options, kind)) {
            for (int seq : options.plan().seqLens()) {
                for (int batch : options.plan().batches()) {
                    cells.add(new Cell(pairing.engine(), pairing.device(), pairing.model(), seq, batch));
                }
            }
        }
        return List.copyOf(cells);
    }

    /** Every engine, device and model of the run that {@code kind}'s cells open, in plan order. */
    public static List<Pairing> pairings(SweepOptions options, CellKind kind) {
        return Pairings.of(options.plan().backends(), options.plan().devices(), options.plan().models(), kind.purpose());
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
     * The (backend, model) pairs left out of the plan because the engine does not open that model for {@code kind}, with
     * the reason; and the default engines left out because they cannot run on the devices asked for
     * ({@link SweepOptions.Plan#leftOut}).
     */
    public static List<String> skipped(SweepOptions options, CellKind kind) {
        List<String> skipped = new ArrayList<>(options.plan().leftOut());
        skipped.addAll(Pairings.skipped(options.plan().backends(), options.plan().models(), kind.purpose()));
        return List.copyOf(skipped);
    }
}
