package io.inferbench.compare;

import io.inferbench.Text;
import io.inferbench.results.AbSection;

import java.util.ArrayList;
import java.util.List;

/**
 * An A/B run's answer, cell by cell, from its pairs: {@link PairedChange} for the p50 and the p99, intervals
 * simultaneous over every cell and both percentiles (Bonferroni, as {@link Comparison} does), and the gate's
 * {@code regressed}: the statistics, which {@link AbReport} writes as {@code ab.json} and {@code ab.md} beside run.json
 * and says on the console; cheap enough to compute again after every pair, so that a run stopped at any point keeps the
 * answer of the pairs it finished.
 *
 * <p><b>Doubted data.</b> A cell whose measurements the run set aside or kept disturbed (other processes took the
 * machine meanwhile) is {@code unresolved}, saying why, unless its pairs still prove a change: an interval wholly on one
 * side of 0 survives a disturbance that both sides of each pair shared.
 */
public final class PairedAnalysis {
    /** 1: first version; 2: the gate's decision, overall ({@code decision}, {@code headline}) and per cell ({@code gate}). */
    public static final int SCHEMA_VERSION = 2;

    /**
     * ab.json.
     *
     * @param regressed               any cell's p50 or p99 a regression: the gate's exit code 1
     * @param thresholdPercent        the change that is a regression
     * @param floorPercent            the smallest change called {@code slower} or {@code faster}
     * @param confidenceLevel         the family's confidence, over every interval together
     * @param intervals               how many intervals the family holds (cells times two percentiles)
     * @param intervalConfidenceLevel each interval's own confidence
     * @param gatePercentiles         what a passing cell must rule a regression out at: {@code p50} or {@code p50,p99}
     * @param decision                the gate's decision over every cell ({@link GateDecision#overall})
     * @param headline                the decision with the count of cells for each, as ab.md's first line says it
     * @param pairsStopped            why the pairs stopped; null while they go on, or when the run was stopped before
     *                                they ended (then {@code decision} is at most {@code undecided})
     * @param secondsPerPair          the pairs' mean wall time so far, for what more pairs would cost; null before one
     * @param runStopped              why the run was ended before its pairs did (a signal, the Maven JVM gone); null
     *                                when it was not
     */
    public record AbResult(int schemaVersion, boolean regressed, double thresholdPercent, double floorPercent,
                           double confidenceLevel, int intervals, double intervalConfidenceLevel, String gatePercentiles,
                           GateDecision decision, String headline, String pairsStopped, Double secondsPerPair,
                           String runStopped, List<Cell> cells) {

        /**
         * This answer with each cell's stop ({@code stops}, in plan order; null: still open) and why the pairs stopped
         * ({@code pairsStopped}, null while they go on): the same analysis, said after a pair decided what stops.
         */
        public AbResult withStops(List<String> stops, String pairsStopped) {
            List<Cell> stopped = new ArrayList<>();
            for (int i = 0; i < cells.size(); i++) {
                Cell c = cells.get(i);
                stopped.add(new Cell(c.backend(), c.device(), c.model(), c.seqLen(), c.batch(), c.pairs(), c.p50(), c.p99(),
                        stops.get(i), c.disturbed(), c.failed(), c.note(), c.gate(), c.order()));
            }
            return summarized(stopped, thresholdPercent, floorPercent, confidenceLevel, intervals, intervalConfidenceLevel,
                    gatePercentiles, pairsStopped, secondsPerPair);
        }

        /**
         * This answer as the run was ended before its pairs did: the headline says so first, and nothing passes (a
         * regression or a failed cell stays what it is).
         */
        public AbResult stoppedBy(String why) {
            GateDecision d = decision == GateDecision.REGRESSION || decision == GateDecision.FAILED ? decision
                    : GateDecision.UNDECIDED;
            String counts = headline.substring(headline.indexOf(':'));
            return new AbResult(schemaVersion, regressed, thresholdPercent, floorPercent, confidenceLevel, intervals,
                    intervalConfidenceLevel, gatePercentiles, d, "stopped after " + pairsSoFar() + " pair(s), " + d.label()
                    + counts, null, secondsPerPair, why, cells);
        }

        /** How many pairs the most-paired cell has. */
        public int pairsSoFar() {
            return cells.stream().mapToInt(Cell::pairs).max().orElse(0);
        }

        /** The cells the gate could not decide. */
        public List<Cell> undecided() {
            return cells.stream().filter(c -> c.gate().decision() == GateDecision.UNDECIDED).toList();
        }
    }

    /**
     * One cell of ab.json.
     *
     * @param p50    the p50's change; null before the first pair
     * @param failed why a subject's cell failed, naming the subject; null when neither did
     * @param note   why the verdicts are {@code unresolved} though the intervals would say more; null otherwise
     * @param gate   what the gate concludes about the cell, and why
     * @param order  in the {@code passes} mode, the order of A's and B's calls over the cell's pairs; else null
     */
    public record Cell(String backend, String device, String model, int seqLen, int batch, int pairs, PairedChange p50,
                       PairedChange p99, String stop, String disturbed, String failed, String note, CellGate gate,
                       AbSection.CallOrder order) {
        boolean regression() {
            return p50 != null && (p50.regression() || p99.regression());
        }

        /** {@code seq 64 batch 4}, or {@code batch 4} for a model with no swept axis. */
        public String shape() {
            return Text.seq(seqLen) + " batch " + batch;
        }
    }

    /** As {@link #analyse(List, double, double, double, boolean, String)} with the p50 gated alone, the pairs finished. */
    public static AbResult analyse(List<AbSection.CellPairs> cells, double familyLevel, double thresholdPercent,
                                   double floorPercent) {
        return analyse(cells, familyLevel, thresholdPercent, floorPercent, false, "the pairs ended");
    }

    /**
     * @param cells            each cell's pairs so far, in plan order
     * @param familyLevel      the confidence of every interval together
     * @param thresholdPercent the change that is a regression
     * @param floorPercent     the smallest change called {@code slower} or {@code faster} ({@link PairedChange})
     * @param gateP99          a passing cell must rule a regression out at p99 too, not only at p50
     * @param pairsStopped     why the pairs stopped; null while they go on
     */
    public static AbResult analyse(List<AbSection.CellPairs> cells, double familyLevel, double thresholdPercent,
                                   double floorPercent, boolean gateP99, String pairsStopped) {
        int intervals = 2 * cells.size();
        double level = Comparison.perIntervalLevel(familyLevel, intervals);
        List<Cell> out = new ArrayList<>();
        for (AbSection.CellPairs cell : cells) {
            int n = cell.pairs().size();
            if (n == 0) {
                CellGate gate = cell.failed() != null ? new CellGate(GateDecision.FAILED, Text.shorten(cell.failed(), 300), null)
                        : new CellGate(GateDecision.UNDECIDED, "no pair yet; an interval needs " + minimumPairs(level) + " pairs",
                        minimumPairs(level));
                out.add(new Cell(cell.backend(), cell.device(), cell.model(), cell.seqLen(), cell.batch(), 0, null, null,
                        cell.stop(), cell.disturbed(), cell.failed(), null, gate, AbSection.CallOrder.over(cell.pairs())));
                continue;
            }
            double[] a50 = new double[n];
            double[] b50 = new double[n];
            double[] a99 = new double[n];
            double[] b99 = new double[n];
            for (int i = 0; i < n; i++) {
                AbSection.Pair pair = cell.pairs().get(i);
                a50[i] = pair.aP50Ms();
                b50[i] = pair.bP50Ms();
                a99[i] = pair.aP99Ms();
                b99[i] = pair.bP99Ms();
            }
            PairedChange p50 = PairedChange.of(a50, b50, level, thresholdPercent, floorPercent);
            PairedChange p99 = PairedChange.of(a99, b99, level, thresholdPercent, floorPercent);
            String note = null;
            if (cell.disturbed() != null) {
                List<String> kept = new ArrayList<>();
                if (!proves(p50)) {
                    p50 = p50.unresolved();
                    kept.add("p50");
                }
                if (!proves(p99)) {
                    p99 = p99.unresolved();
                    kept.add("p99");
                }
                if (!kept.isEmpty()) {
                    note = String.join(" and ", kept) + " unresolved: " + cell.disturbed() + ", and the pairs do not prove a change";
                }
            }
            out.add(new Cell(cell.backend(), cell.device(), cell.model(), cell.seqLen(), cell.batch(), n, p50, p99, cell.stop(),
                    cell.disturbed(), cell.failed(), note, decide(p50, p99, cell, gateP99, level),
                    AbSection.CallOrder.over(cell.pairs())));
        }
        return summarized(out, thresholdPercent, floorPercent, familyLevel, intervals, level, gateP99 ? "p50,p99" : "p50", pairsStopped,
                secondsPerPair(cells));
    }

    /** The answer over {@code out}'s cells: their decision together, and the headline that counts them. */
    private static AbResult summarized(List<Cell> out, double thresholdPercent, double floorPercent, double familyLevel,
                                       int intervals,
                                       double level, String gatePercentiles, String pairsStopped, Double secondsPerPair) {
        GateDecision decision = GateDecision.overall(out.stream().map(c -> c.gate().decision()).toList());
        if (pairsStopped == null && decision == GateDecision.NO_REGRESSION) {
            decision = GateDecision.UNDECIDED; // the pairs go on, or the run was stopped before they ended
        }
        String headline = GateDecision.headline(out, c -> c.gate().decision());
        headline = decision.label() + headline.substring(headline.indexOf(':'));
        return new AbResult(SCHEMA_VERSION, out.stream().anyMatch(Cell::regression), thresholdPercent, floorPercent,
                familyLevel, intervals,
                level, gatePercentiles, decision, headline, pairsStopped, secondsPerPair, null, List.copyOf(out));
    }

    /**
     * The gate's decision about a cell whose pairs gave {@code p50} and {@code p99}: a regression when either interval
     * lies wholly above the threshold; a pass when the p50's (and with {@code gateP99} the p99's) lies wholly below it;
     * undecided otherwise, saying what is missing. A pair whose fork was kept disturbed (other processes took the CPU
     * through its tries) has no say in a pass: the interval is taken again over the other pairs, unless the pairs prove
     * a change. A fork set aside as disturbed and measured again in a fresh JVM is no doubt here: what the pair kept is
     * an undisturbed measurement, and the time between its two sides adds noise that widens the interval, not bias (it
     * keeps a {@code within} verdict {@code unresolved}, which claims more: no change of the resolution's size).
     */
    static CellGate decide(PairedChange p50, PairedChange p99, AbSection.CellPairs cell, boolean gateP99, double level) {
        if (cell.failed() != null) {
            return new CellGate(GateDecision.FAILED, Text.shorten(cell.failed(), 300), null);
        }
        if (p50.regression() || p99.regression()) {
            PairedChange shown = p50.regression() ? p50 : p99;
            return new CellGate(GateDecision.REGRESSION, Text.f("%s %+.1f%% [%+.1f, %+.1f] lies wholly above %s%%",
                    p50.regression() ? "p50" : "p99", shown.changePercent(), shown.ciLowPercent(), shown.ciHighPercent(),
                    Text.plain(shown.thresholdPercent())), null);
        }
        List<AbSection.Pair> clean = cell.pairs().stream().filter(p -> !Boolean.TRUE.equals(p.keptDisturbed())).toList();
        int kept = cell.pairs().size() - clean.size();
        List<String> missing = new ArrayList<>();
        List<String> passes = new ArrayList<>();
        List<Integer> needed = new ArrayList<>();
        for (PairedChange change : gateP99 ? List.of(p50, p99) : List.of(p50)) {
            String name = change == p50 ? "p50" : "p99";
            PairedChange judged = change;
            String from = "";
            if (kept > 0 && !proves(change)) {
                from = " from its " + clean.size() + " pair(s) with no fork kept disturbed";
                judged = clean.isEmpty() ? null : PairedChange.of(
                        clean.stream().mapToDouble(p -> change == p50 ? p.aP50Ms() : p.aP99Ms()).toArray(),
                        clean.stream().mapToDouble(p -> change == p50 ? p.bP50Ms() : p.bP99Ms()).toArray(),
                        level, change.thresholdPercent(), change.floorPercent());
            }
            if (judged == null || judged.ciLowPercent() == null) {
                int pairs = judged == null ? 0 : judged.pairs();
                missing.add(Text.f("%s has no interval %s; one needs %d", name, from.isEmpty() ? "after " + pairs + " pair(s)"
                        : from.substring(1), minimumPairs(level)));
                needed.add(minimumPairs(level) - pairs + kept);
            } else if (!(judged.ciHighPercent() < judged.thresholdPercent())) {
                missing.add(Text.f("%s %+.1f%% [%+.1f, %+.1f]%s reaches past %s%%", name, judged.changePercent(),
                        judged.ciLowPercent(), judged.ciHighPercent(), from, Text.plain(judged.thresholdPercent())));
                needed.add(pairsToDecide(judged));
            } else {
                passes.add(GateDecision.passText(name, judged.thresholdPercent(), judged.ciLowPercent(), judged.ciHighPercent())
                        + from);
            }
        }
        if (missing.isEmpty()) {
            return new CellGate(GateDecision.NO_REGRESSION, String.join("; ", passes), null);
        }
        Integer more = needed.contains(null) ? null : needed.stream().mapToInt(Integer::intValue).max().orElse(0);
        return new CellGate(GateDecision.UNDECIDED, String.join("; ", missing), more);
    }

    /** The pairs' mean wall time: when the last pair ended, over how many pairs there were; null before the first. */
    private static Double secondsPerPair(List<AbSection.CellPairs> cells) {
        long endedMs = 0;
        int pairs = 0;
        for (AbSection.CellPairs cell : cells) {
            for (AbSection.Pair pair : cell.pairs()) {
                endedMs = Math.max(endedMs, pair.endedAtMs());
                pairs = Math.max(pairs, pair.pair());
            }
        }
        return pairs == 0 || endedMs == 0 ? null : endedMs / 1000.0 / pairs;
    }

    /** The fewest pairs whose signed-rank interval exists at {@code level}: 6 at 95%, 8 at 99.2%. */
    public static int minimumPairs(double level) {
        int n = 1;
        while (PairedChange.criticalRank(n, 1 - level) < 0 && n < PairedChange.MAX_PAIRS) {
            n++;
        }
        return n;
    }

    /**
     * About how many more pairs would take {@code change}'s interval wholly to one side of the threshold, as the
     * half-width falls with the root of the pairs' count and the estimate stays where it is; null when the estimate is
     * so close to the threshold that more than ten times the pairs would be needed (not within reach).
     */
    static Integer pairsToDecide(PairedChange change) {
        double centre = Math.log1p(change.changePercent() / 100);
        double halfWidth = (Math.log1p(change.ciHighPercent() / 100) - Math.log1p(change.ciLowPercent() / 100)) / 2;
        double margin = Math.abs(Math.log1p(change.thresholdPercent() / 100) - centre);
        if (!(margin > 0) || !(halfWidth > 0)) {
            return null;
        }
        double factor = Math.pow(halfWidth / margin, 2);
        if (factor > 10) {
            return null;
        }
        return Math.max(1, (int) Math.ceil(change.pairs() * factor) - change.pairs());
    }

    private static boolean proves(PairedChange change) {
        return change.verdict() == PairedVerdict.SLOWER || change.verdict() == PairedVerdict.FASTER;
    }
}
