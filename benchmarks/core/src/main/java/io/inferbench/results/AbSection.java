package io.inferbench.results;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.util.List;

/**
 * An A/B run's own section of {@code run.json} ({@code -Dbench.ab.baseline}): the two subjects with their conditions and
 * what differs between them, every finished pair of every cell, and A's cells. The run's {@code cells} are B's (the
 * run's own subject); A's whole run is also written as {@code baseline/run.json} in the run's folder. The pairs are
 * rewritten after every pair, so a run stopped at any point keeps each pair it finished; {@code ab.json} holds the
 * answer from them.
 *
 * @param mode             how the pairs were measured: {@code forks}, A's and B's fork JVMs one after the other in an
 *                         order drawn per pair; {@code duet}, both at the same time, each pinned to its own half of the
 *                         cores; {@code passes}, one fork JVM per pair holding both models, their passes alternating
 * @param sameSubject      A and B are the same subject (an A/A run: how the gate is calibrated)
 * @param differences      what differs between A and B, one line each; empty for an A/A run
 * @param rules            the rules the pairs were judged and stopped by, written flat
 * @param cells            each cell's pairs, in plan order
 * @param baselineCells    A's cells as measured in the same run, for the batch-scaling chart of both
 * @param stop             why the pairs stopped; null while they run
 * @param regressed        a cell's p50 or p99 a regression by its pairs so far: the run's exit code 1 ({@code ab.json}
 *                         says which)
 * @param decision         the gate's decision over every cell, failing closed: {@code regression}, {@code failed},
 *                         {@code undecided} (exit code 4) or {@code no regression shown} ({@code ab.json}'s
 *                         {@code headline} counts the cells of each); {@code undecided} while the pairs go on; null in a
 *                         run written before the decision was recorded
 */
public record AbSection(String mode, boolean sameSubject, List<Subject> subjects, List<String> differences,
                        @JsonUnwrapped Rules rules, List<CellPairs> cells, List<CellResult> baselineCells, String stop,
                        Boolean regressed, String decision) {

    public AbSection {
        subjects = List.copyOf(subjects);
        differences = List.copyOf(differences);
        cells = List.copyOf(cells);
        baselineCells = baselineCells == null ? null : List.copyOf(baselineCells);
    }

    public AbSection withPairs(List<CellPairs> newCells, List<CellResult> newBaselineCells, String newStop,
                               Boolean newRegressed, String newDecision) {
        return new AbSection(mode, sameSubject, subjects, differences, rules, newCells, newBaselineCells, newStop,
                newRegressed, newDecision);
    }

    /**
     * What the pairs were judged and stopped by ({@code -Dbench.ab.*}).
     *
     * @param thresholdPercent  the change that is a regression
     * @param resolutionPercent the half-width a cell's p50 interval needs before {@code within} stops its pairs
     * @param floorPercent      the smallest change a cell is called {@code slower} or {@code faster} for; 0 in a run
     *                          written before the floor existed, which called any interval that excludes 0
     * @param confidenceLevel   simultaneous over every interval
     * @param maxMinutes        the time cap of the pairs
     * @param maxPairs          the most pairs of any cell
     */
    public record Rules(double thresholdPercent, double resolutionPercent, double floorPercent, double confidenceLevel,
                        double maxMinutes, int maxPairs) {
    }

    /** The change that is a regression. */
    public double thresholdPercent() {
        return rules.thresholdPercent();
    }

    /**
     * One subject's conditions where they may differ from the other's: the rest (the machine, the engine, the settings)
     * is the run's {@code config} and {@code environment}, shared by both.
     *
     * @param name    {@code A} (the baseline) or {@code B} (the run's own subject)
     * @param models  its models with their SHA-256; a target's is {@code none}
     * @param targets its target code, each class-path entry with its SHA-256; null without a target
     * @param runFile its own run file, relative to the run's folder
     */
    public record Subject(String name, List<RunConfig.ModelInfo> models, List<RunConfig.TargetCode> targets, String runFile) {
    }

    /**
     * One cell's pairs.
     *
     * @param disturbed why the run doubts this cell's data (a fork set aside or kept disturbed); null when it does not
     * @param failed    why a subject's cell failed, naming the subject; its pairs end there; null when neither did
     * @param stop      why its pairs stopped: its answer known, the cap, a failure; null while they go on
     */
    public record CellPairs(String id, String backend, String device, String model, int seqLen, int batch, List<Pair> pairs,
                            String disturbed, String failed, String stop) {
        public CellPairs {
            pairs = List.copyOf(pairs);
        }
    }

    /**
     * One pair: A's and B's p50 and p99 over one fork each, run back to back in the same pair of fork rounds.
     *
     * @param pair      the pair's number, from 1, in time order
     * @param bFirst    whether B's fork ran before A's (the order is drawn per pair); null in a duet, where they run at
     *                  the same time, and in the {@code passes} mode, where one fork held both
     * @param bCpus     in a duet, the cores B's fork was pinned to (A's were the other half; drawn per pair); else null
     * @param endedAtMs when the pair's second fork ended, in ms since the first pair started
     * @param disturbed whether either fork's measurement was set aside or kept disturbed
     * @param keptDisturbed whether either fork's kept measurement is one other processes disturbed (kept after its
     *                  tries, not measured again): such a pair cannot help rule a regression out; null in runs written
     *                  before it was recorded
     * @param order     in the {@code passes} mode, the order of A's and B's calls in the pair's fork; else null
     */
    public record Pair(int pair, Boolean bFirst, String bCpus, double aP50Ms, double bP50Ms, double aP99Ms, double bP99Ms, long endedAtMs,
                       boolean disturbed, Boolean keptDisturbed, CallOrder order) {
        /** As above, outside the {@code passes} mode. */
        public Pair(int pair, Boolean bFirst, String bCpus, double aP50Ms, double bP50Ms, double aP99Ms, double bP99Ms,
                    long endedAtMs, boolean disturbed, Boolean keptDisturbed) {
            this(pair, bFirst, bCpus, aP50Ms, bP50Ms, aP99Ms, bP99Ms, endedAtMs, disturbed, keptDisturbed, null);
        }

        /** As above, with no fork kept disturbed. */
        public Pair(int pair, Boolean bFirst, String bCpus, double aP50Ms, double bP50Ms, double aP99Ms, double bP99Ms,
                    long endedAtMs, boolean disturbed) {
            this(pair, bFirst, bCpus, aP50Ms, bP50Ms, aP99Ms, bP99Ms, endedAtMs, disturbed, false);
        }
    }

    /**
     * The order of A's and B's calls where one fork's units each held one of both, each order once in every block of
     * two units (the {@code passes} mode): how often each side ran first, and what running second did to each side's
     * p50. Each side runs first as often as second, to within one unit a fork, so a cost of running second (caches the
     * other evicted, a pool still spinning) falls on both alike; these figures show that it did. Of a pair, its fork's
     * measured units; of a cell ({@code ab.json}), the sums over its pairs and the median of their percents.
     *
     * @param calls           the measured units: A's calls, and as many of B's
     * @param bFirstCalls     the units in which B's call ran first
     * @param aSecondPercent  A's p50 over its calls run second against its p50 over those run first, in percent
     *                        (positive: slower when second); null where either set is empty
     * @param bSecondPercent  as {@code aSecondPercent}, of B's calls
     */
    public record CallOrder(long calls, long bFirstCalls, Double aSecondPercent, Double bSecondPercent) {
        /** B's share of the first places, in percent; null with no calls. */
        public Double bFirstPercent() {
            return calls == 0 ? null : 100.0 * bFirstCalls / calls;
        }

        /**
         * Of a cell: the calls and first places summed over its pairs, and the median of each side's percent; null
         * where no pair has an order.
         */
        public static CallOrder over(List<Pair> pairs) {
            return together(pairs.stream().map(Pair::order).toList());
        }

        /**
         * Several orders as one (a cell's pairs, or a run's cells): the calls and first places summed, the median of
         * each side's percent; null where none is given (nulls are skipped).
         */
        public static CallOrder together(List<CallOrder> given) {
            List<CallOrder> orders = given.stream().filter(java.util.Objects::nonNull).toList();
            if (orders.isEmpty()) {
                return null;
            }
            return new CallOrder(orders.stream().mapToLong(CallOrder::calls).sum(),
                    orders.stream().mapToLong(CallOrder::bFirstCalls).sum(),
                    median(orders.stream().map(CallOrder::aSecondPercent).toList()),
                    median(orders.stream().map(CallOrder::bSecondPercent).toList()));
        }

        private static Double median(List<Double> values) {
            double[] v = values.stream().filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue).toArray();
            return v.length == 0 ? null : new Median().evaluate(v);
        }
    }
}
