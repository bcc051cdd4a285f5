package io.inferbench.runner;

import io.inferbench.measure.HistogramCodec;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which forks of a cell departed from their siblings: a fork whose p50 lies more than a factor ({@code
 * -Dbench.forkDeparture}, 1.5 by default) above or below the median of the cell's fork p50s, and outside its own
 * interval. The sweep measures such a cell again in a fresh JVM ({@link Departures}), once, and keeps the departed fork
 * in {@code run.json}'s {@code departedForks}, out of the cell's numbers: a JVM that ran all its passes slow is not the
 * steady state of the cells it measured. It needs three forks or more, and a cell whose forks still disagree keeps the
 * disagreement.
 *
 * <p>Only a fork that departed as <i>fast</i>, and that its fresh JVM confirms ({@link #siblingsInDoubt}), puts its
 * siblings in doubt (the majority was the odd one out): they are measured again, once each, and kept as
 * {@code doubted}. Interference only adds time, so a slow departure never does, even when confirmed ({@link #confirmed}).
 * Why, with the runs that showed each case: docs/findings.md, "Forks that depart".
 */
public final class ForkDeparture {
    /** The default factor: beyond the spread of good forks (docs/findings.md, "Forks that depart"). */
    public static final double DEFAULT_FACTOR = 1.5;
    /** Fewer forks than this leave no majority to depart from. */
    public static final int MIN_FORKS = 3;

    private ForkDeparture() {
    }

    /**
     * One fork that departed.
     *
     * @param siblingsP50Ms the median of the cell's fork p50s, this fork's included
     */
    public record Departure(int round, double p50Ms, double siblingsP50Ms) {
        /** This fork's p50 over its siblings' median: above 1 slower, below 1 faster. */
        public double ratio() {
            return p50Ms / siblingsP50Ms;
        }
    }

    /** The departed forks of a measured cell; none when it has fewer than {@link #MIN_FORKS} forks. */
    public static List<Departure> find(CellResult cell, double factor) {
        if (!cell.measured() || cell.forkRuns() == null || cell.forkHistogramsNs() == null
                || cell.forkRuns().size() != cell.forkHistogramsNs().size()) {
            return List.of();
        }
        List<Integer> rounds = new ArrayList<>();
        List<Double> p50s = new ArrayList<>();
        List<Double> halfWidths = new ArrayList<>();
        for (int i = 0; i < cell.forkRuns().size(); i++) {
            CellFork fork = cell.forkRuns().get(i);
            rounds.add(fork.round());
            p50s.add(HistogramCodec.p50Ms(cell.forkHistogramsNs().get(i)));
            halfWidths.add(fork.measurement().p50HalfWidthPercent());
        }
        return find(rounds, p50s, halfWidths, factor);
    }

    /** The p50 of each fork the cell kept, by round: a replaced round's is its fresh JVM's. */
    public static Map<Integer, Double> keptP50sMs(CellResult cell) {
        Map<Integer, Double> p50s = new TreeMap<>();
        for (int i = 0; i < cell.forkRuns().size(); i++) {
            p50s.put(cell.forkRuns().get(i).round(), HistogramCodec.p50Ms(cell.forkHistogramsNs().get(i)));
        }
        return p50s;
    }

    /**
     * Whether a fresh JVM agreed with a departed fork: both its first p50 and the fresh one lie beyond the factor on the
     * same side of the median of the siblings it departed from. Then the departure was not an accident of its first JVM;
     * whether that puts the siblings in doubt depends on the side ({@link #siblingsInDoubt}).
     *
     * @param siblingsP50Ms the p50s of the cell's forks that were not measured again
     */
    public static boolean confirmed(double departedP50Ms, double freshP50Ms, Collection<Double> siblingsP50Ms, double factor) {
        return side(departedP50Ms, freshP50Ms, siblingsP50Ms, factor) != 0;
    }

    /**
     * Whether the siblings of a departed fork are in doubt and are measured again: a fresh JVM agreed with the departed
     * fork ({@link #confirmed}) on the fast side, both below the siblings' median by more than the factor. A departure
     * confirmed on the slow side leaves the siblings as they are (see the class comment).
     */
    public static boolean siblingsInDoubt(double departedP50Ms, double freshP50Ms, Collection<Double> siblingsP50Ms,
                                          double factor) {
        return side(departedP50Ms, freshP50Ms, siblingsP50Ms, factor) < 0;
    }

    /** -1: the departed fork and the fresh one both faster than the siblings by the factor; 1: both slower; 0 otherwise. */
    private static int side(double departedP50Ms, double freshP50Ms, Collection<Double> siblingsP50Ms, double factor) {
        if (siblingsP50Ms.isEmpty() || !(freshP50Ms > 0)) {
            return 0;
        }
        double median = new Median().evaluate(siblingsP50Ms.stream().mapToDouble(Double::doubleValue).toArray());
        double before = departedP50Ms / median;
        double after = freshP50Ms / median;
        return before > factor && after > factor ? 1 : before < 1 / factor && after < 1 / factor ? -1 : 0;
    }

    /**
     * The rule itself.
     *
     * @param p50sMs            each fork's p50
     * @param halfWidthsPercent each fork's p50 interval half-width in percent of its p50 (null with a fixed count: then
     *                          only the factor applies)
     */
    static List<Departure> find(List<Integer> rounds, List<Double> p50sMs, List<Double> halfWidthsPercent, double factor) {
        if (!(factor > 1)) {
            throw new IllegalArgumentException("a departure factor is above 1, got " + factor);
        }
        if (p50sMs.size() < MIN_FORKS) {
            return List.of();
        }
        double median = new Median().evaluate(p50sMs.stream().mapToDouble(Double::doubleValue).toArray());
        List<Departure> departed = new ArrayList<>();
        for (int i = 0; i < p50sMs.size(); i++) {
            double p50 = p50sMs.get(i);
            double ratio = p50 / median;
            Double halfWidth = halfWidthsPercent.get(i);
            boolean beyondFactor = ratio > factor || ratio < 1 / factor;
            boolean beyondOwnInterval = halfWidth == null || Math.abs(median - p50) > p50 * halfWidth / 100;
            if (median > 0 && beyondFactor && beyondOwnInterval) {
                departed.add(new Departure(rounds.get(i), p50, median));
            }
        }
        return departed;
    }
}
