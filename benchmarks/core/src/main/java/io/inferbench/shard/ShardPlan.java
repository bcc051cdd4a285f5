package io.inferbench.shard;

import io.inferbench.BenchmarkException;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.results.Json;
import io.inferbench.results.RunConfig;
import io.inferbench.runner.Cell;
import io.inferbench.runner.SweepOptions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Splits a sweep's plan into shards: deterministically, so that every machine of a CI matrix or an Indexed Job computes
 * the same parts from the same settings without talking to the others, and balanced by each cell's predicted cost.
 *
 * <p><b>The cost.</b> The ETA model's shape ({@code EtaEstimator}) with its coefficients fixed, since a shard must not
 * measure anything to find its part: a pass is priced at {@value #PRIOR_MS_PER_TOKEN} ms per token (batch x seq, the
 * scale of the built-in {@code tiny} on 2 cores; only the ratios between cells matter), and a cell's time is what its
 * warm-up and stop rules make of that pass time: a fixed count times it, or the rule's minimum time, raised by the
 * passes a rule needs and held to its cap. A fork JVM costs {@value #JVM_SECONDS} s more in each shard that runs any cell
 * of its engine, device and model (start-up, engine load, session creation), so cells of one model stay together where
 * that balances as well.
 *
 * <p><b>The partition.</b> Longest first (ties in plan order), each to the shard whose total it raises least (ties to
 * the lowest index): within 4/3 of the best possible balance (Graham's bound for longest-processing-time scheduling).
 */
public final class ShardPlan {
    static final double PRIOR_MS_PER_TOKEN = 0.007;
    static final double JVM_SECONDS = 1.0;

    private ShardPlan() {
    }

    /** A cell's predicted seconds per fork round under {@code policy}. */
    static double cost(Cell cell, MeasurePolicy policy) {
        double passMs = PRIOR_MS_PER_TOKEN * cell.batch() * (double) Math.max(1, cell.seqLen());
        var warm = policy.warmup();
        var stop = policy.stop();
        double warmMs = warm.fixedPasses() != null ? warm.fixedPasses() * passMs
                : Math.min(warm.capMs(), Math.max(warm.minMs(), 2.0 * warm.windowMinPasses() * passMs));
        double measureMs = stop.fixedPasses() != null ? stop.fixedPasses() * passMs
                : Math.min(stop.capMs(), Math.max(stop.minMs(), stop.minPasses() * passMs));
        return (warmMs + measureMs) / 1000;
    }

    /** The cells of {@code shard}, in plan order. */
    public static List<Cell> part(List<Cell> plan, Shard shard, MeasurePolicy policy) {
        List<List<Cell>> parts = partition(plan, shard.count(), policy);
        return parts.get(shard.index() - 1);
    }

    /** Every shard's cells, in plan order; a shard may be empty when the plan has fewer cells than shards. */
    static List<List<Cell>> partition(List<Cell> plan, int count, MeasurePolicy policy) {
        double[] load = new double[count];
        List<Set<Object>> groups = new ArrayList<>();
        List<List<Integer>> members = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            groups.add(new HashSet<>());
            members.add(new ArrayList<>());
        }
        List<Integer> order = IntStream.range(0, plan.size()).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -cost(plan.get(i), policy)).thenComparingInt(i -> i)).toList();
        for (int i : order) {
            Cell cell = plan.get(i);
            Object group = cell.series().engineModel();
            double cost = cost(cell, policy);
            int best = 0;
            double bestTotal = Double.MAX_VALUE;
            for (int s = 0; s < count; s++) {
                double total = load[s] + cost + (groups.get(s).contains(group) ? 0 : JVM_SECONDS);
                if (total < bestTotal - 1e-12) {
                    bestTotal = total;
                    best = s;
                }
            }
            load[best] = bestTotal;
            groups.get(best).add(group);
            members.get(best).add(i);
        }
        List<List<Cell>> parts = new ArrayList<>();
        for (List<Integer> m : members) {
            parts.add(m.stream().sorted().map(plan::get).toList());
        }
        return parts;
    }

    /**
     * What makes two shards parts of one plan: the whole plan and every setting that changes how a cell is measured: the
     * measuring rules, every option of the fork JVMs (a new one is in the hash as soon as it is a field of
     * {@link SweepOptions.ForkJvms}), and the engines' threads. Not the environment the JVMs inherit: what it adds is
     * recorded in each shard's run, and the merge compares the runs as rulers.
     */
    record Key(List<String> cells, int shards, MeasurePolicy policy, int forks, long seed, Double forkDeparture,
               SweepOptions.ForkJvms forkJvms, int intraOpThreads, int interOpThreads, boolean allowCpuFallback) {
    }

    /** SHA-256 of the plan and its settings, hex: shards of one plan carry the same. */
    public static String hash(List<Cell> plan, int shards, SweepOptions options) {
        SweepOptions.Rules rules = options.rules();
        SweepOptions.Engines engines = options.engines();
        Key key = new Key(plan.stream().map(Cell::id).toList(), shards, rules.measurePolicy(), rules.forks(), rules.seed(),
                rules.forkDeparture(), options.forkJvms().withoutInherited(), engines.intraOpThreads(),
                engines.interOpThreads(), engines.allowCpuFallback());
        try {
            byte[] json = Json.mapper().writeValueAsString(key).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
        } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("hashing a plan: " + e, e);
        }
    }

    /** This shard's record for run.json. */
    public static RunConfig.ShardInfo info(List<Cell> plan, Shard shard, SweepOptions options) {
        List<Cell> mine = part(plan, shard, options.rules().measurePolicy());
        if (mine.isEmpty()) {
            throw new BenchmarkException("-Dbench.shard=" + shard.label() + " has no cell: the plan has " + plan.size()
                    + " cell(s), fewer than " + shard.count() + " shards; use at most " + plan.size() + " shards");
        }
        return new RunConfig.ShardInfo(shard.index(), shard.count(), hash(plan, shard.count(), options),
                plan.stream().map(Cell::id).toList(), mine.stream().map(Cell::id).toList(), null);
    }
}
