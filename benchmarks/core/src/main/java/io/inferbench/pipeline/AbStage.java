package io.inferbench.pipeline;

import io.inferbench.Text;
import io.inferbench.compare.AbOptions;
import io.inferbench.compare.AbReport;
import io.inferbench.compare.PairedAnalysis;
import io.inferbench.measure.CellLoop;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.measure.LatencySummary;
import io.inferbench.report.Charts;
import io.inferbench.results.AbSection;
import io.inferbench.results.CellFork;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;
import io.inferbench.results.RunConfig;
import io.inferbench.runner.Cell;
import io.inferbench.sweep.AlternatingKind;
import io.inferbench.runner.DuetCpus;
import io.inferbench.runner.ForkRunner;
import io.inferbench.runner.TimeAccount;

import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An A/B run's pairs. Pair {@code k} is fork round {@code k} of A and of B, measuring every open cell as a sweep's fork
 * does, in the same seeded order of cells; where they come from is the mode's {@link PairSource} (one fork JVM of each
 * side one after the other, a duet, or one fork JVM whose passes alternate), which this stage drives without knowing
 * which. A cell's pair is A's and B's p50 and p99 over their fork of that round; both saw nearly the same state of the
 * machine, so its drift cancels in their ratio ({@link PairedAnalysis}).
 *
 * <p><b>When the pairs stop.</b> After each pair every cell is analysed again, its intervals simultaneous over all
 * cells; a cell whose p50 is decided (its interval wholly above the threshold, or wholly below it) is not measured
 * again, and the pairs stop when none is left, at the most pairs, or before a pair that would end after the time cap as
 * the last one took. A cell that fails in either subject ends its pairs there, named as that subject's failure; the
 * other subject's results are kept.
 *
 * <p><b>Durability.</b> run.json (B's cells and the {@code ab} section with every pair) is rewritten after every fork
 * JVM, and ab.json and ab.md after every pair, so a kill keeps every pair that finished.
 */
final class AbStage extends NamedStage {
    /** The sweep's name: it measures B's cells (with A's), and the analysis and resources that need a sweep follow it. */
    static final String NAME = SweepStage.NAME;

    private final ForkRunner a;
    private final ForkRunner b;
    private final List<Cell> planA;
    private final List<Cell> planB;
    private final AbPreflightStage preflight;
    private final AbOptions ab;
    private final long seed;
    private final DuetCpus duet;
    /** Each pair one fork JVM holding both sessions ({@link AlternatingKind}), whose runner is {@link #b}. */
    private final boolean passes;

    /**
     * @param a    A's runner; null in the {@code passes} mode, where {@code b}'s fork JVMs hold A's session too
     * @param duet the halves of the cores in a duet; null: the forks or passes mode
     */
    AbStage(ForkRunner a, ForkRunner b, List<Cell> planA, List<Cell> planB, AbPreflightStage preflight, AbOptions ab, long seed,
            DuetCpus duet) {
        super(NAME, TimeAccount.Phase.SWEEP, List.of(PreflightStage.NAME));
        this.a = a;
        this.b = b;
        this.planA = List.copyOf(planA);
        this.planB = List.copyOf(planB);
        this.preflight = preflight;
        this.ab = ab;
        this.seed = seed;
        this.duet = duet;
        this.passes = ab.mode() == AbOptions.Mode.PASSES;
    }

    /** One subject's fork of one round of a cell, as its pair uses it. */
    record ForkView(double p50Ms, double p99Ms, boolean disturbed, boolean keptDisturbed, String why) {
    }

    @Override
    public RunResult run(RunResult run, RunContext context) {
        PrintStream console = context.console();
        RunStore storeB = context.store();
        RunStore storeA = storeB.subject(AbRun.BASELINE_FOLDER);
        AtomicReference<AbSection> section = new AtomicReference<>(run.ab());
        storeA.writeRun(preflight.startedA());
        String link = storeB.linkAsLatest(RunStore.Subject.of(run.config().plan()));
        if (link != null) {
            console.println("[inferbench] " + link);
        }
        PairSource source = source(run, storeA, storeB, section);
        List<String> header = new ArrayList<>(AbReport.header(run.ab(), source.measuredHow()));
        if (run.config().provenance().besideAnotherRun() != null) {
            header.add(0, "> **Measured beside another inferbench run** (" + run.config().provenance().besideAnotherRun()
                    + ", -Dbench.concurrent=allow): both subjects shared the machine with it.");
        }

        int n = planB.size();
        List<List<AbSection.Pair>> pairs = new ArrayList<>();
        String[] failed = new String[n];
        String[] disturbed = new String[n];
        String[] stops = new String[n];
        List<Map<String, Integer>> doubtCounts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pairs.add(new ArrayList<>());
            doubtCounts.add(new java.util.LinkedHashMap<>());
        }
        Set<Integer> open = new LinkedHashSet<>();
        for (int i = 0; i < n; i++) {
            open.add(i);
        }
        long startNs = System.nanoTime();
        long capNs = (long) (ab.maxMinutes() * 60e9);
        long lastPairNs = 0;
        String overall = null;
        PairedAnalysis.AbResult result = analyse(pairs, disturbed, failed, stops, null);
        AtomicReference<PairedAnalysis.AbResult> lastWritten = new AtomicReference<>();
        Thread stopped = new Thread(() -> writeStopped(lastWritten.get(), header, storeB), "inferbench-ab-stopped");
        Runtime.getRuntime().addShutdownHook(stopped);
        try {
            for (int pair = 1; pair <= ab.maxPairs() && overall == null; pair++) {
                long pairStartNs = System.nanoTime();
                if (pair > 1 && pairStartNs - startNs + lastPairNs > capNs) {
                    overall = Text.f("time cap: pair %d would end after %s min, as the last took %.0f s", pair,
                            Text.plain(ab.maxMinutes()), lastPairNs / 1e9);
                    break;
                }
                PairSource.Round round = source.measure(pair, open.stream().map(planA::get).toList(),
                        open.stream().map(planB::get).toList());
                long endNs = System.nanoTime();
                lastPairNs = endNs - pairStartNs;
                List<CellResult> cellsOfA = source.cellsA();
                Map<String, CellResult> resultsA = byId(cellsOfA);
                Map<String, CellResult> resultsB = byId(source.cellsB());
                for (int i : List.copyOf(open)) {
                    CellResult ra = resultsA.get(planA.get(i).id());
                    CellResult rb = resultsB.get(planB.get(i).id());
                    if (rb != null && !rb.measured() || ra != null && !ra.measured()) {
                        boolean bFailed = rb != null && !rb.measured();
                        String what = source.failed(bFailed);
                        failed[i] = what + ": " + (bFailed ? rb : ra).error();
                        stops[i] = "pair " + pair + ": " + what;
                        open.remove(i);
                        continue;
                    }
                    ForkView fa = fork(ra, pair);
                    ForkView fb = fork(rb, pair);
                    if (fa == null || fb == null) {
                        continue; // a fork of this round that did not end: no pair this round
                    }
                    // Where A's and B's passes alternate in one fork, what disturbed it fell on both alike: no doubt.
                    boolean doubted = !source.sidesShareTheMachine() && (fa.disturbed() || fb.disturbed());
                    pairs.get(i).add(new AbSection.Pair(pair, round.bFirst(), round.bCpus(), fa.p50Ms(), fb.p50Ms(),
                            fa.p99Ms(), fb.p99Ms(), (endNs - startNs) / 1_000_000, doubted,
                            doubted && (fa.keptDisturbed() || fb.keptDisturbed()), source.order(rb, pair)));
                    if (doubted || !doubtCounts.get(i).isEmpty()) {
                        disturbed[i] = doubts(pairs.get(i), fa, fb, doubtCounts.get(i));
                    }
                }
                result = analyse(pairs, disturbed, failed, stops, null);
                for (int i : List.copyOf(open)) {
                    if (decided(result.cells().get(i))) {
                        stops[i] = "decided after " + pairs.get(i).size() + " pairs";
                        open.remove(i);
                    }
                }
                if (open.isEmpty()) {
                    overall = "every cell decided or failed";
                } else {
                    overall = outOfReach(result, open, pair, (System.nanoTime() - startNs) / 1e9);
                }
                result = result.withStops(java.util.Arrays.asList(stops.clone()), overall); // one analysis a pair
                section.set(run.ab().withPairs(cellPairs(pairs, disturbed, failed, stops), cellsOfA, overall,
                        result.regressed(), result.decision().label()));
                source.writeRound(storeB);
                AbReport.write(result, header, List.of(), storeB.runDir());
                lastWritten.set(result);
                console.println(AbReport.pairLine(pair, round.words(), lastPairNs, endNs - startNs, result, open.size()));
            }
        } catch (RuntimeException e) {
            writeStopped(lastWritten.get(), header, storeB, "the pairs stopped on an error: " + Text.shorten(String.valueOf(e), 300));
            throw e;
        } finally {
            removeHook(stopped);
        }
        if (overall == null) {
            overall = "the most pairs, " + ab.maxPairs();
        }
        for (int i : open) {
            stops[i] = overall;
        }
        result = analyse(pairs, disturbed, failed, stops, overall);
        List<AbSection.CellPairs> finalPairs = cellPairs(pairs, disturbed, failed, stops);
        String pairsStopped = overall;
        PairedAnalysis.AbResult decided = result;
        PairSource.Finished finished = source.finish(cellsOfA -> section.set(run.ab().withPairs(finalPairs, cellsOfA,
                pairsStopped, decided.regressed(), decided.decision().label())));
        RunResult finishedA = finished.a();
        RunResult finishedB = finished.b();
        List<Charts.ChartFile> charts = List.of();
        try {
            charts = Charts.writeAb(finishedA.cells(), finishedB.cells(), finalPairs, AbReport.subjects(run.ab()),
                    storeB.runDir().resolve("plots"));
        } catch (RuntimeException e) {
            console.println("[inferbench] A/B plots not drawn: " + e);
        }
        AbReport.write(result, header, charts, storeB.runDir());
        AbReport.printTable(result, overall, console);
        console.println("[inferbench] A/B " + result.headline() + ": " + storeB.runDir().resolve(AbReport.MARKDOWN_FILE)
                + " (ab.json beside it; A's own run in " + storeA.runFile() + ")");
        return finishedB;
    }

    /**
     * The mode's pairs, their runs opened: B's run.json carries the A/B section as it stands ({@code section}), and in the
     * {@code passes} mode B's side of each fork.
     */
    private PairSource source(RunResult run, RunStore storeA, RunStore storeB, AtomicReference<AbSection> section) {
        RunConfig.ModelInfo modelA = passes ? PassesCells.only(preflight.resultA()) : null;
        RunConfig.ModelInfo modelB = passes ? PassesCells.only(preflight.resultB()) : null;
        ForkRunner.Recording recordB = (started, cells, finished) -> started
                .withCells(passes ? PassesCells.sides(cells, AlternatingKind.B, modelB) : cells, finished ? Instant.now().toString() : null)
                .withAb(section.get());
        if (passes) {
            return new PairSource.Passes(b.open(run, planB, storeB, preflight.resultB(), recordB, ab.maxPairs(), "A|B"),
                    preflight.startedA(), storeA, modelA, modelB);
        }
        ForkRunner.Recording recordA = (started, cells, finished) -> started
                .withCells(cells, finished ? Instant.now().toString() : null);
        ForkRunner.Measuring ma = a.open(preflight.startedA(), planA, storeA, preflight.resultA(), recordA, ab.maxPairs(), "A");
        ForkRunner.Measuring mb = b.open(run, planB, storeB, preflight.resultB(), recordB, ab.maxPairs(), "B");
        Random order = new Random(seed * 31 + 0xAB);
        return duet != null ? new PairSource.Duet(ma, mb, order, duet) : new PairSource.Forks(ma, mb, order);
    }

    private PairedAnalysis.AbResult analyse(List<List<AbSection.Pair>> pairs, String[] disturbed, String[] failed,
                                            String[] stops, String overall) {
        return PairedAnalysis.analyse(cellPairs(pairs, disturbed, failed, stops), ab.confidenceLevel(), ab.thresholdPercent(),
                ab.floorPercent(), ab.gateP99(), overall);
    }

    /**
     * Whether a cell's pairs can stop: its p50 decided ({@link io.inferbench.compare.PairedChange#decided}) and the gate's
     * decision about it no longer {@code undecided} (a regression shown, or one ruled out at every percentile it gates,
     * by pairs whose forks were not kept disturbed).
     */
    private boolean decided(PairedAnalysis.Cell cell) {
        return cell.p50() != null && cell.p50().decided(ab.resolutionPercent())
                && cell.gate().decision() != io.inferbench.compare.GateDecision.UNDECIDED;
    }

    /** ab.json and ab.md as a run ended before its pairs did leaves them: saying so first, nothing passed. */
    private static void writeStopped(PairedAnalysis.AbResult last, List<String> header, RunStore store) {
        writeStopped(last, header, store, "the run was ended (SIGTERM, Ctrl-C, or its Maven JVM gone) before its pairs did");
    }

    private static void writeStopped(PairedAnalysis.AbResult last, List<String> header, RunStore store, String why) {
        if (last == null) {
            return;
        }
        try {
            AbReport.write(last.stoppedBy(why), header, List.of(), store.runDir());
        } catch (RuntimeException e) {
            System.err.println("[inferbench] could not write the stopped A/B's ab.md: " + e);
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is shutting down: the hook runs, as it should
        }
    }

    /**
     * Why the run doubts a cell, counted over its pairs: how many pairs, and which subject's forks were kept disturbed or
     * set aside, in one line whatever the number of pairs.
     *
     * @param counts each reason's pairs so far, updated with this pair's
     */
    static String doubts(List<AbSection.Pair> pairs, ForkView a, ForkView b, Map<String, Integer> counts) {
        if (a.disturbed()) {
            counts.merge("A's fork " + a.why(), 1, Integer::sum);
        }
        if (b.disturbed()) {
            counts.merge("B's fork " + b.why(), 1, Integer::sum);
        }
        long doubted = pairs.stream().filter(AbSection.Pair::disturbed).count();
        return doubted + " of " + pairs.size() + " pairs doubted: " + String.join("; ", counts.entrySet().stream()
                .map(e -> e.getKey() + " in " + e.getValue() + " pair(s)").toList());
    }

    private static Map<String, CellResult> byId(List<CellResult> cells) {
        return cells.stream().collect(Collectors.toMap(CellResult::id, Function.identity(), (x, y) -> y));
    }

    private List<AbSection.CellPairs> cellPairs(List<List<AbSection.Pair>> pairs, String[] disturbed, String[] failed,
                                                String[] stops) {
        List<AbSection.CellPairs> out = new ArrayList<>();
        for (int i = 0; i < planB.size(); i++) {
            Cell cell = planB.get(i);
            out.add(new AbSection.CellPairs(cell.id(), cell.backend(), cell.device(), cell.model(), cell.seqLen(), cell.batch(),
                    pairs.get(i), disturbed[i], failed[i], stops[i]));
        }
        return out;
    }

    /**
     * The cell's fork of {@code round}: its p50 and p99 over that fork's measured passes, and whether the run doubts it
     * (set aside as disturbed and measured again, or kept disturbed); null when no fork of that round ended.
     */
    static ForkView fork(CellResult cell, int round) {
        if (cell == null || cell.forkRuns() == null) {
            return null;
        }
        for (int j = 0; j < cell.forkRuns().size(); j++) {
            CellFork fork = cell.forkRuns().get(j);
            if (fork.round() != round) {
                continue;
            }
            String histogram = cell.forkHistogramsNs() != null ? cell.forkHistogramsNs().get(j) : cell.histogramNs();
            LatencySummary latency = LatencySummary.of(HistogramCodec.decode(histogram));
            boolean keptDisturbed = fork.measurement() != null && CellLoop.disturbed(fork.measurement().cpu());
            boolean setAside = fork.measurement() != null && fork.measurement().setAside() != null
                    && !fork.measurement().setAside().isEmpty();
            String why = keptDisturbed ? "kept disturbed (other processes took the CPU)"
                    : setAside ? "set aside as disturbed and measured again" : null;
            return new ForkView(latency.p50Ms(), latency.p99Ms(), why != null, keptDisturbed, why);
        }
        return null;
    }

    /**
     * Why the pairs stop early, or null: after at least {@value #PAIRS_BEFORE_GIVING_UP} pairs, every open cell's estimate
     * of the pairs that would decide it ({@link io.inferbench.compare.CellGate#moreToDecide}) is out of reach, at twice
     * what is left of {@code bench.ab.maxMinutes} and {@code bench.ab.maxPairs} or more: the rest of the budget would
     * leave them undecided anyway. The line names the setting that would decide them.
     */
    private String outOfReach(PairedAnalysis.AbResult result, java.util.Set<Integer> open, int pair, double elapsedSeconds) {
        List<Integer> more = new ArrayList<>();
        for (int i : open) {
            io.inferbench.compare.CellGate gate = result.cells().get(i).gate();
            more.add(gate == null ? null : gate.moreToDecide());
        }
        return outOfReach(more, pair, elapsedSeconds, result.secondsPerPair(), ab.maxPairs(), ab.maxMinutes());
    }

    /**
     * {@link #outOfReach(PairedAnalysis.AbResult, java.util.Set, int, double)} on numbers: {@code more}, each open cell's
     * estimate of the pairs that would decide it (null: none).
     */
    static String outOfReach(List<Integer> more, int pair, double elapsedSeconds, Double perPair, int maxPairs,
                             double maxMinutes) {
        if (pair < PAIRS_BEFORE_GIVING_UP || perPair == null || perPair <= 0 || more.isEmpty()) {
            return null;
        }
        double pairsLeft = Math.min(maxPairs - pair, Math.max(0, maxMinutes * 60 - elapsedSeconds) / perPair);
        int most = 0;
        for (Integer m : more) {
            if (m == null || m < 2 * pairsLeft) {
                return null; // within reach, or no estimate: measure on
            }
            most = Math.max(most, m);
        }
        double minutes = Math.ceil((elapsedSeconds + most * perPair) / 60);
        return Text.f("out of reach: the open cell(s) need about %d more pair(s), %.1f min, and %.0f are left in the cap; "
                + "-Dbench.ab.maxMinutes=%s and -Dbench.ab.maxPairs=%d would decide them", most, most * perPair / 60,
                Math.floor(pairsLeft), Text.plain(minutes), Math.max(maxPairs, pair + most));
    }

    /** The pairs an A/B run measures before it may stop for a cell out of reach: twice the fewest for an interval. */
    static final int PAIRS_BEFORE_GIVING_UP = 16;
}
