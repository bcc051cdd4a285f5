package io.inferbench.sweep;

import io.inferbench.Text;
import io.inferbench.analysis.Analysis;
import io.inferbench.environment.EnvironmentProbe;
import io.inferbench.measure.CompilerThreads;
import io.inferbench.measure.HistogramCodec;
import io.inferbench.model.ResolvedModel;
import io.inferbench.report.ReportWriter;
import io.inferbench.report.StopTable;
import io.inferbench.report.SummaryTable;
import io.inferbench.report.VerdictTable;
import io.inferbench.results.CellResult;
import io.inferbench.results.DepartedFork;
import io.inferbench.results.ForkJvm;
import io.inferbench.results.RunAnalysis;
import io.inferbench.results.RunConfig;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Runs a sweep: preflight, then every cell in fresh fork JVMs, one round over all cells per fork, persisting
 * {@code run.json} after every fork JVM.
 *
 * <p><b>Fork JVMs.</b> With {@link Isolation#MODEL} (the default) each round starts one JVM per engine, device and
 * model, which runs that model's cells in a seeded order of its own ({@link Cell#order}); with {@link Isolation#CELL},
 * one JVM per cell. Either way each cell is warmed up until steady and measured until precise in each fork.
 *
 * <p><b>Forks are interleaved.</b> With {@code forks = F}, the sweep makes F rounds over all cells, so a cell's forks are
 * spread over the whole run instead of running back to back. Their spread then includes the machine's drift over
 * minutes (other load, thermal and frequency state), which is what separates two runs of the same code; a comparison's
 * confidence interval is built from it.
 *
 * <p><b>Departed forks.</b> After the rounds, a fork whose p50 departs from its cell's other forks by more than
 * {@code -Dbench.forkDeparture} ({@link ForkDeparture}) is measured again: one fresh JVM per engine, device, model and
 * round with departures, over those cells, in a seeded order. The departed measurement is kept in the cell's
 * {@code departedForks}, out of its numbers; a re-measurement that fails leaves the departed fork in place. When the
 * fresh JVM agrees with a fork that departed as fast ({@link ForkDeparture#siblingsInDoubt}), the siblings it departed
 * from are the ones in doubt (two slow JVMs of three make the normal one look fast), and they are measured again the
 * same way, once; agreement on the slow side leaves them (a machine slower after the rounds reads slow in any JVM).
 *
 * <p><b>Durability.</b> Each fork writes every cell's measurement to the cell's folder as soon as the cell ends, and
 * the run file is rewritten atomically after each fork JVM, so a crash or a kill mid-sweep loses nothing measured. A
 * cell that fails is recorded as failed, is not retried in later rounds, and the sweep goes on: the fork goes on to
 * its next cell, and a fork JVM that crashes mid-cell is started again for the cells it had not reached.
 *
 * <p><b>Console.</b> The plan, where the log is, one progress line per cell and fork ({@link Progress}), then the
 * tables, the verdicts and the paths. JMH's and the forks' own output go to {@code console.log} in the run folder.
 */
public final class SweepRunner {
    /** The longest this JVM waits for its compilers to go idle before it starts a fork JVM. */
    static final long QUIET_CAP_MS = 2000;

    private final SweepOptions options;
    private final ForkExecutor executor;
    private final PrintStream console;
    private final boolean terminal;
    private final TimeAccount time;

    public SweepRunner(SweepOptions options, ForkExecutor executor, PrintStream console) {
        this(options, executor, console, false, new TimeAccount());
    }

    /**
     * @param terminal the console is a terminal, so the progress line can be rewritten in place
     * @param time     where the sweep's phases are timed; the caller adds what it runs after the sweep
     */
    public SweepRunner(SweepOptions options, ForkExecutor executor, PrintStream console, boolean terminal, TimeAccount time) {
        this.options = options;
        this.executor = executor;
        this.console = console;
        this.terminal = terminal;
        this.time = time;
    }

    /** The finished run and where it was written. */
    public record Outcome(RunResult run, RunStore store, TimeAccount time) {
        public long failedCells() {
            return run.cells().stream().filter(c -> !c.measured()).count();
        }
    }

    public Outcome run(String mavenCommand, String jvmCommand) {
        List<Cell> wholePlan = Cell.plan(options);
        RunConfig.ShardInfo shard = options.shard() == null ? null
                : io.inferbench.shard.ShardPlan.info(wholePlan, options.shard(), options);
        List<Cell> plan = shard == null ? wholePlan : wholePlan.stream().filter(c -> shard.cells().contains(c.id())).toList();
        List<List<Cell>> groups = Cell.groups(plan, options.isolation());
        if (shard != null) {
            console.println(Text.f("[inferbench] shard %s: %d of the plan's %d cells (plan %s), balanced by predicted cost; "
                    + "its verdicts cover its own cells only: merge the shards (exec:java@merge) for the plan's", options.shard().label(), plan.size(), wholePlan.size(),
                    shard.planHash().substring(0, 12)));
        }
        console.println(Text.f("[inferbench] sweep of %d cells x %d fork(s) = %d cell runs in %d fork JVMs (%s isolation): "
                        + "backends %s, devices %s, models %s, seq %s, batch %s; %s; %d intra-op thread(s); allocator %s%s; fork JVM options %s, JIT %s in cells",
                plan.size(), options.forks(), plan.size() * options.forks(),
                groups.stream().mapToInt(g -> chunks(g).size()).sum() * options.forks(),
                options.isolation().label(), options.backends(), options.devices(), options.models(), options.seqLens(),
                options.batches(), StopTable.describe(options.measurePolicy()), options.intraOpThreads(),
                options.forkAllocatorEnvironment().isEmpty() ? "glibc defaults" : options.forkAllocatorEnvironment(),
                options.forkEngineEnvironment().isEmpty() ? "" : "; PyTorch kernels " + options.forkEngineEnvironment(),
                options.forkJvmArgs() == null || options.forkJvmArgs().isBlank() ? "none" : options.forkJvmArgs().trim(),
                options.jitCompilation().label()));
        Preflight.Result preflight = time.time(TimeAccount.Phase.PREFLIGHT, () -> Preflight.check(options, console));
        ZonedDateTime started = ZonedDateTime.now();
        RunStore store = RunStore.create(options.resultsDir(), RunStore.newRunId(started));
        RunConfig config = config(preflight.models(), mavenCommand, jvmCommand, shard);
        RunResult run = new RunResult(RunResult.SCHEMA_VERSION, store.runDir().getFileName().toString(),
                started.toInstant().toString(), null, EnvironmentProbe.collect(preflight.engines()), config, List.of());
        store.writeRun(run);

        Progress progress = new Progress(console, terminal, store.consoleLog(), plan.size() * options.forks());
        for (String pair : config.skippedPairs()) {
            progress.say("[inferbench] not planned: " + pair);
        }
        String link = store.linkAsLatest();
        progress.say("[inferbench] writing " + store.runFile() + (link == null ? "" : " (" + link + ")")
                + "; JMH's and the forked JVMs' own output: " + store.consoleLog()
                + (options.verbose() ? " (and echoed here, -Dbench.verbose=true)" : " (-Dbench.verbose=true to see it here)"));

        EtaEstimator eta = new EtaEstimator();
        preflight.probes().forEach(p -> eta.probe(p.target(), p.tokens(), p.passMs()));
        Rounds rounds = new Rounds(plan, groups, store, preflight, progress, eta, run);
        long sweepStart = System.nanoTime();
        for (int round = 1; round <= options.forks(); round++) {
            for (List<Cell> group : groups) {
                rounds.runGroup(round, group);
            }
        }
        if (options.forkDeparture() != null) {
            rounds.remeasureDeparted(groups, options.forkDeparture());
        }
        run = rounds.run;
        time.add(TimeAccount.Phase.SWEEP, (System.nanoTime() - sweepStart) / 1e9);
        progress.endStatus();
        run = run.withCells(rounds.results(), Instant.now().toString()).withForkJvms(rounds.jvms);
        store.writeRun(run);
        store.writeJmhResults();
        console.println("[inferbench] sweep finished in " + Progress.duration(progress.elapsedSeconds()));
        RunResult finished = run;
        RunResult analyzed = time.time(TimeAccount.Phase.REPORT, () -> {
            SummaryTable.print(finished, console);
            StopTable.print(finished, console);
            return analyzeAndReport(finished, store);
        });
        return new Outcome(analyzed, store, time);
    }

    /** The cells of a sweep through its rounds: which fork JVMs ran, what each cell has so far. */
    private final class Rounds {
        private final List<Cell> plan;
        private final Map<Cell, Integer> index = new HashMap<>();
        private final List<CellResult> results = new ArrayList<>();
        private final List<ForkJvm> jvms = new ArrayList<>();
        private final RunStore store;
        private final Preflight.Result preflight;
        private final Progress progress;
        private final EtaEstimator eta;
        private final List<Cell> remainingCells = new ArrayList<>();
        private final List<String> remainingJvms = new ArrayList<>();
        /** Each cell's p50 in every fork JVM so far, as their events reported it: what a JVM's cells are held against. */
        private final Map<String, List<Double>> forkP50sMs = new HashMap<>();
        /** The groups and rounds whose JVM was stopped as slow already: once is enough ({@link SlowJvm}). */
        private final Set<String> stoppedAsSlow = new HashSet<>();
        private RunResult run;
        private int step;

        Rounds(List<Cell> plan, List<List<Cell>> groups, RunStore store, Preflight.Result preflight, Progress progress,
               EtaEstimator eta, RunResult run) {
            this.run = run;
            this.plan = plan;
            this.store = store;
            this.preflight = preflight;
            this.progress = progress;
            this.eta = eta;
            for (int i = 0; i < plan.size(); i++) {
                index.put(plan.get(i), i);
                results.add(null);
            }
            for (int r = 0; r < options.forks(); r++) {
                remainingCells.addAll(plan);
                groups.forEach(g -> chunks(g).forEach(chunk -> remainingJvms.add(g.get(0).backend())));
            }
        }

        List<CellResult> results() {
            return results.stream().filter(Objects::nonNull).toList();
        }

        private boolean failed(Cell cell) {
            CellResult result = results.get(index.get(cell));
            return result != null && !result.measured();
        }

        /**
         * Measures again, in a fresh JVM per round, the forks of {@code group} that departed from their siblings
         * ({@link ForkDeparture}); each is replaced once. Then, where a fresh JVM agreed with a fork that departed as
         * fast, the siblings it departed from are measured again the same way ({@link #inDoubt}).
         */
        void remeasureDeparted(List<List<Cell>> groups, double factor) {
            List<Map<Integer, List<Cell>>> byGroup = new ArrayList<>();
            List<String> found = new ArrayList<>();
            for (List<Cell> group : groups) {
                Map<Integer, List<Cell>> byRound = new TreeMap<>();
                for (Cell cell : group) {
                    CellResult result = results.get(index.get(cell));
                    if (result == null || result.departedForks() != null) {
                        continue;
                    }
                    for (ForkDeparture.Departure d : ForkDeparture.find(result, factor)) {
                        byRound.computeIfAbsent(d.round(), r -> new ArrayList<>()).add(cell);
                        found.add(Text.f("%s fork %d p50 %.3f ms, x%.2f its forks' median %.3f ms", cell.id(), d.round(),
                                d.p50Ms(), d.ratio(), d.siblingsP50Ms()));
                    }
                }
                byGroup.add(byRound);
            }
            if (found.isEmpty()) {
                return;
            }
            // One console line whatever the count (the console has a line budget); every fork in the log.
            progress.addRuns(found.size());
            progress.say(Text.f("[inferbench] %d fork(s) departed from their siblings by more than x%s (-Dbench.forkDeparture): "
                    + "measuring them again in fresh JVMs, the departed kept in run.json's departedForks (each in "
                    + "console.log): %s", found.size(), Text.plain(factor), firstTwo(found)));
            found.forEach(line -> progress.log("[inferbench] departed: " + line));
            progress.quiet(true);
            byGroup.forEach(byRound -> remeasure(byRound, false));
            List<String> confirmed = new ArrayList<>();
            List<Map<Integer, List<Cell>>> doubted = inDoubt(groups, factor, confirmed);
            int siblings = doubted.stream().mapToInt(byRound -> byRound.values().stream().mapToInt(List::size).sum()).sum();
            if (siblings > 0) {
                progress.addRuns(siblings);
                progress.say(Text.f("[inferbench] %d fresh measurement(s) agreed with the departed fork, so its siblings "
                        + "were the odd ones: measuring %d sibling fork(s) again too, kept as doubted (each in console.log): %s",
                        confirmed.size(), siblings, firstTwo(confirmed)));
                confirmed.forEach(line -> progress.log("[inferbench] departure confirmed: " + line));
                doubted.forEach(byRound -> remeasure(byRound, true));
            }
            progress.quiet(false);
        }

        private static String firstTwo(List<String> lines) {
            return String.join("; ", lines.subList(0, Math.min(2, lines.size())))
                    + (lines.size() > 2 ? Text.f("; and %d more", lines.size() - 2) : "");
        }

        /**
         * Per group, the rounds whose forks are in doubt: the cell's forks that were not measured again, where a fresh
         * JVM agreed with a fork that departed from them as fast ({@link ForkDeparture#siblingsInDoubt}). {@code
         * confirmed} gets a line per such cell; a departure confirmed on the slow side leaves its siblings, with a line
         * in the log.
         */
        private List<Map<Integer, List<Cell>>> inDoubt(List<List<Cell>> groups, double factor, List<String> confirmed) {
            List<Map<Integer, List<Cell>>> byGroup = new ArrayList<>();
            for (List<Cell> group : groups) {
                Map<Integer, List<Cell>> byRound = new TreeMap<>();
                for (Cell cell : group) {
                    CellResult result = results.get(index.get(cell));
                    if (result == null || !result.measured() || result.departedForks() == null) {
                        continue;
                    }
                    Map<Integer, Double> p50sMs = forkP50sMs(result);
                    Map<Integer, Double> siblingsP50Ms = new TreeMap<>(p50sMs);
                    result.departedForks().forEach(d -> siblingsP50Ms.remove(d.fork().round()));
                    for (DepartedFork d : result.departedForks()) {
                        double fresh = p50sMs.getOrDefault(d.fork().round(), Double.NaN);
                        String siblings = Text.f("its siblings (rounds %s) %s ms", siblingsP50Ms.keySet(),
                                siblingsP50Ms.values().stream().map(v -> Text.f("%.3f", v)).toList());
                        String departure = Text.f("%s fork %d p50 %.3f ms, then %.3f ms in a fresh JVM", cell.id(),
                                d.fork().round(), d.p50Ms(), fresh);
                        if (ForkDeparture.siblingsInDoubt(d.p50Ms(), fresh, siblingsP50Ms.values(), factor)) {
                            siblingsP50Ms.keySet().forEach(r -> byRound.computeIfAbsent(r, k -> new ArrayList<>()).add(cell));
                            confirmed.add(departure + ", " + siblings);
                            break;
                        }
                        if (ForkDeparture.confirmed(d.p50Ms(), fresh, siblingsP50Ms.values(), factor)) {
                            progress.log("[inferbench] departure confirmed on the slow side: " + departure + "; " + siblings
                                    + " are kept: only a fast departure puts its siblings in doubt");
                        }
                    }
                }
                byGroup.add(byRound);
            }
            return byGroup;
        }

        /**
         * One group's set-aside forks, measured again in a fresh JVM per round; each outcome goes to the log.
         *
         * @param doubted the forks are siblings of a confirmed departure rather than departed themselves
         */
        private void remeasure(Map<Integer, List<Cell>> byRound, boolean doubted) {
            for (Map.Entry<Integer, List<Cell>> entry : byRound.entrySet()) {
                int round = entry.getKey();
                List<Cell> todo = Cell.order(entry.getValue(), options.seed(), round + options.forks() * (doubted ? 2 : 1));
                todo.forEach(cell -> CellAggregator.setAside(store.forkDir(index.get(cell)), round, doubted));
                remainingCells.addAll(todo);
                runInJvms(round, todo, true);
                for (Cell cell : todo) {
                    CellResult result = results.get(index.get(cell));
                    if (result.departedForks() == null) {
                        continue;
                    }
                    for (DepartedFork d : result.departedForks().stream().filter(d -> d.fork().round() == round).toList()) {
                        progress.log(Text.f("[inferbench] measured again: %s fork %d (%s): p50 %.3f ms in its first JVM, %.3f ms "
                                + "in a fresh one, its forks' median now %.3f ms", cell.id(), round, d.reason(), d.p50Ms(),
                                forkP50sMs(result).get(round), d.keptForksP50Ms()));
                    }
                }
            }
        }

        /** The p50 of each fork the cell kept, by round: a replaced round's is its fresh JVM's. */
        private static Map<Integer, Double> forkP50sMs(CellResult result) {
            Map<Integer, Double> p50s = new TreeMap<>();
            for (int i = 0; i < result.forkRuns().size(); i++) {
                p50s.put(result.forkRuns().get(i).round(), HistogramCodec.p50Ms(result.forkHistogramsNs().get(i)));
            }
            return p50s;
        }

        /** One round of one group: a fork JVM over its cells, started again for the cells a crash left unreached. */
        void runGroup(int round, List<Cell> group) {
            chunks(group).forEach(chunk -> remainingJvms.remove(group.get(0).backend()));
            List<Cell> todo = new ArrayList<>();
            for (Cell cell : Cell.order(group, options.seed(), round)) {
                if (failed(cell)) {
                    finishStep(cell, cell.id() + " fork " + round + ": skipped, the cell already failed", false);
                } else {
                    todo.add(cell);
                }
            }
            runInJvms(round, todo, false);
        }

        /**
         * Runs {@code cells} in fork JVMs of at most {@code -Dbench.cellsPerJvm} cells ({@link #chunks}), each started
         * again for the cells a crash or a stop left unreached.
         */
        private void runInJvms(int round, List<Cell> cells, boolean remeasure) {
            for (List<Cell> chunk : chunks(cells)) {
                List<Cell> left = chunk;
                while (!left.isEmpty()) {
                    left = runFork(round, left, remeasure);
                }
            }
        }

        /**
         * Runs one fork JVM over {@code todo}; returns the cells it did not reach and that another JVM should run.
         *
         * @param remeasure the cells' forks of {@code round} departed and are set aside: a cell this JVM fails to
         *                  measure again keeps its departed fork instead of failing
         */
        private List<Cell> runFork(int round, List<Cell> todo, boolean remeasure) {
            Cell first = todo.get(0);
            List<ForkPlan.PlannedCell> planned = todo.stream()
                    .map(c -> new ForkPlan.PlannedCell(c.seqLen(), c.batch(), store.forkDir(index.get(c)))).toList();
            ForkPlan forkPlan = new ForkPlan(round, first.backend(), first.device(), first.model(), planned,
                    options.sessionDefaults(), options.measurePolicy(), options.nvidiaSmi(), options.jitCompilation());
            Path planFile = store.forkPlanFile(jvms.size() + 1);
            forkPlan.write(planFile);
            String slowKey = first.series().engineModel() + " round " + round;
            boolean guard = !remeasure && todo.size() > 1 && options.forkDeparture() != null && !stoppedAsSlow.contains(slowKey);
            ForkWatch watch = new ForkWatch(round, guard ? new SlowJvm(options.forkDeparture()) : null);
            ForkExecutor.ForkExit exit;
            Throwable launchFailure = null;
            // What this JVM's compilers still have to do (the preflight's code, the last fork's aggregation) is done
            // before the fork starts, not on the cores its first cell measures on (CompilerThreads).
            CompilerThreads.ofThisJvm().awaitIdle(null, QUIET_CAP_MS);
            long startNs = System.nanoTime();
            try {
                time.jvmStarted();
                exit = executor.run(forkPlan, planFile, store.consoleLog(), watch::on);
            } catch (ForkExecutor.Stop stop) {
                // An executor that lets the stop through instead of returning: the JVM is gone all the same.
                exit = new ForkExecutor.ForkExit(-1, -1, System.currentTimeMillis(), String.valueOf(stop.getMessage()));
            } catch (Exception e) {
                launchFailure = e;
                exit = new ForkExecutor.ForkExit(-1, -1, System.currentTimeMillis(), String.valueOf(e));
            }
            double wallSeconds = (System.nanoTime() - startNs) / 1e9;
            account(watch, exit, wallSeconds, first.backend());
            if (watch.slowReason != null) {
                stoppedAsSlow.add(slowKey);
            }

            List<Cell> unreached = new ArrayList<>();
            for (Cell cell : todo) {
                boolean finished = watch.finished.contains(cell.id());
                if (watch.ready && !finished && !cell.id().equals(watch.running)) {
                    unreached.add(cell);
                } else if (remeasure) {
                    settleRemeasurement(cell, round, finished ? null : crash(exit, launchFailure, watch, cell));
                } else if (finished) {
                    aggregate(cell, round);
                } else {
                    // An open failure has written its error into every cell's folder; a crash or a launch failure nothing.
                    failInRound(cell, round, crash(exit, launchFailure, watch, cell), watch.openError == null);
                }
            }
            jvms.add(new ForkJvm(round, first.backend(), first.device(), first.model(), exit.pid(),
                    todo.stream().map(Cell::id).toList(), watch.jvmStartMs(exit), watch.engineLoadMs, watch.sessionCreateMs,
                    watch.sessionRssMb, firstInference(todo, round), wallSeconds, exit.exitCode(),
                    watch.slowReason != null ? ForkJvm.STOPPED_AS_SLOW + watch.slowReason
                            : exit.exitCode() == 0 ? null : crashSummary(exit, launchFailure, watch)));
            if (watch.ready && unreached.size() == todo.size()) {
                // A fork that opened its session but began none of its cells would only do the same again.
                String why = "the fork JVM (exit code " + exit.exitCode() + ") opened its session but ran none of its cells; "
                        + "see console.log. Its last output: " + exit.outputTail();
                unreached.forEach(cell -> {
                    if (remeasure) {
                        settleRemeasurement(cell, round, why);
                    } else {
                        failInRound(cell, round, why, true);
                    }
                });
                unreached.clear();
            }
            run = run.withCells(results(), null).withForkJvms(jvms);
            store.writeRun(run);
            return watch.ready ? unreached : List.of();
        }

        /** The cell's result from everything its forks have left in its folder so far. */
        private void aggregate(Cell cell, int round) {
            results.set(index.get(cell), CellAggregator.aggregate(cell, modelInfo(preflight.models().get(cell.model())), round,
                    store.forkDir(index.get(cell)), options.isolation()));
        }

        /**
         * A cell measured again: the fresh fork's measurement replaces the departed one, or, when there is none, the
         * departed fork counts as before. {@code crash} says why the JVM did not end the cell, null when it did.
         */
        private void settleRemeasurement(Cell cell, int round, String crash) {
            boolean replaced = CellAggregator.settleRemeasurement(store.forkDir(index.get(cell)), round);
            aggregate(cell, round);
            if (crash != null) {
                finishStep(cell, cell.id() + " fork " + round + " re-measurement FAILED: " + crash + "; the set-aside fork is kept",
                        true);
            } else if (!replaced) {
                progress.say("[inferbench] " + cell.id() + " fork " + round + ": the re-measurement failed; the set-aside fork "
                        + "is kept");
            }
        }

        /** Fails a cell the fork did not end: records why (unless the fork already did), and counts its step. */
        private void failInRound(Cell cell, int round, String why, boolean writeError) {
            if (writeError) {
                CellTrial.writeError(store.forkDir(index.get(cell)), round, new IllegalStateException(why));
            }
            aggregate(cell, round);
            finishStep(cell, cell.id() + " fork " + round + " FAILED: " + why, true);
        }

        /** The time of this fork outside its cells, for the account and the estimate. */
        private void account(ForkWatch watch, ForkExecutor.ForkExit exit, double wallSeconds, String backend) {
            Double startMs = watch.jvmStartMs(exit);
            if (startMs != null) {
                time.add(TimeAccount.Phase.JVM_START, startMs / 1000);
            }
            if (watch.engineLoadMs != null) {
                time.add(TimeAccount.Phase.ENGINE_AND_SESSION, (watch.engineLoadMs + watch.sessionCreateMs) / 1000);
            }
            eta.jvmOverhead(backend, wallSeconds - watch.cellSeconds);
        }

        private Double firstInference(List<Cell> todo, int round) {
            CellResult first = results.get(index.get(todo.get(0)));
            if (first == null || first.forkRuns() == null) {
                return null;
            }
            return first.forkRuns().stream().filter(f -> f.round() == round && f.positionInJvm() == 0)
                    .map(f -> f.firstPassMs()).findFirst().orElse(null);
        }

        private String crash(ForkExecutor.ForkExit exit, Throwable launchFailure, ForkWatch watch, Cell cell) {
            if (launchFailure != null) {
                return "the fork JVM could not be run: " + launchFailure.getMessage();
            }
            if (!watch.ready) {
                return watch.openError != null ? watch.openError
                        : "the fork JVM ended with exit code " + exit.exitCode() + " before opening its session; its last output: "
                        + exit.outputTail();
            }
            return "the fork JVM ended with exit code " + exit.exitCode() + " while measuring this cell (see console.log); its "
                    + "last output: " + exit.outputTail();
        }

        private String crashSummary(ForkExecutor.ForkExit exit, Throwable launchFailure, ForkWatch watch) {
            if (launchFailure != null) {
                return String.valueOf(launchFailure.getMessage());
            }
            return watch.openError != null ? watch.openError : "exit code " + exit.exitCode()
                    + (watch.running != null ? " while measuring " + watch.running : "");
        }

        private void finishStep(Cell cell, String what, boolean failed) {
            remainingCells.remove(cell);
            step++;
            progress.runFinished(step, what, failed, eta.secondsLeft(remainingCells, remainingJvms));
        }

        /** Follows one fork JVM's events. */
        private final class ForkWatch {
            private final int round;
            /** Says when this JVM has gone slow; null where it is not watched. */
            private final SlowJvm slow;
            private String slowReason;
            private final Set<String> finished = new HashSet<>();
            private boolean ready;
            private Long mainEpochMs;
            private Double engineLoadMs;
            private Double sessionCreateMs;
            private Double sessionRssMb;
            private String openError;
            private String running;
            private long runningSinceNs;
            private double cellSeconds;

            ForkWatch(int round, SlowJvm slow) {
                this.round = round;
                this.slow = slow;
            }

            void on(ForkEvent event) {
                switch (event.type()) {
                    case ForkEvent.READY -> {
                        ready = true;
                        mainEpochMs = event.epochMs();
                        engineLoadMs = event.engineLoadMs();
                        sessionCreateMs = event.sessionCreateMs();
                        sessionRssMb = event.sessionRssMb();
                    }
                    case ForkEvent.OPEN_FAILED -> openError = event.error();
                    case ForkEvent.START -> {
                        running = event.cellId();
                        runningSinceNs = System.nanoTime();
                    }
                    case ForkEvent.DONE, ForkEvent.FAILED -> cellEnded(event);
                    default -> {
                        // an event of a newer fork: nothing to do with it here
                    }
                }
            }

            private void cellEnded(ForkEvent event) {
                double seconds = (System.nanoTime() - runningSinceNs) / 1e9;
                cellSeconds += seconds;
                finished.add(event.cellId());
                running = null;
                Cell cell = plan.stream().filter(c -> c.id().equals(event.cellId())).findFirst().orElseThrow();
                boolean failed = ForkEvent.FAILED.equals(event.type());
                eta.cellFinished(cell, seconds, failed ? null : event.p50Ms());
                String what = failed ? cell.id() + " fork " + round + " FAILED: " + event.error()
                        : Text.f("%s fork %d: p50 %.3f ms, p99 %.3f ms (warm-up %d, %s; %d passes, %s%s; %.1f s%s)", cell.id(),
                        round, event.p50Ms(), event.p99Ms(), event.warmupPasses(), event.warmupEnd(), event.passes(),
                        event.stop(), event.precisionPercent() == null ? "" : Text.f(" ±%.1f%%", event.precisionPercent()),
                        seconds, event.cpuPercent() == null ? "" : Text.f("; CPU %.0f%% of its threads%s", event.cpuPercent(),
                                event.otherPercent() == null ? "" : Text.f(", others %.0f%% of the machine", event.otherPercent())));
                finishStep(cell, what, failed);
                if (failed) {
                    return;
                }
                List<Double> earlier = forkP50sMs.computeIfAbsent(cell.id(), k -> new ArrayList<>());
                String why = slow == null ? null : slow.cellDone(cell.id(), event.p50Ms(), event.stop(), List.copyOf(earlier));
                earlier.add(event.p50Ms());
                if (why != null && slowReason == null) {
                    slowReason = why;
                    // The log only (the console has a line budget): run.json's forkJvms and report.md say it too.
                    progress.log("[inferbench] stopping the " + cell.backend() + " fork JVM of round " + round + ": " + why
                            + "; its remaining cells go to a fresh JVM, its slow ones are measured again after the rounds");
                    throw new ForkExecutor.Stop(why);
                }
            }

            Double jvmStartMs(ForkExecutor.ForkExit exit) {
                return mainEpochMs == null ? null : (double) Math.max(0, mainEpochMs - exit.launchEpochMs());
            }
        }
    }

    /**
     * Adds the batch-scaling analysis to the run file, prints the verdicts, and writes plots and report.md.
     * Every cell is already on disk; a failure here is reported and leaves {@code run.json} as it was.
     */
    private RunResult analyzeAndReport(RunResult run, RunStore store) {
        try {
            Analysis analysis = RunAnalysis.analyze(run, options.regimeThresholds());
            RunResult analyzed = run.withAnalysis(analysis);
            store.writeRun(analyzed);
            VerdictTable.print(analysis, console);
            ReportWriter.Written written = ReportWriter.write(analyzed, analysis, store.runDir());
            console.println();
            console.println("[inferbench] report: " + written.report() + " (" + written.charts().size() + " charts in "
                    + written.report().resolveSibling(ReportWriter.PLOTS_DIR) + ")");
            return analyzed;
        } catch (RuntimeException e) {
            console.println("[inferbench] WARNING: the analysis or report failed (" + e + "); run.json holds every cell. "
                    + "Retry with: mvn -q -pl benchmarks compile exec:java@analyze -Drun=" + store.runFile());
            return run;
        }
    }

    /**
     * {@code cells} in runs of at most {@code -Dbench.cellsPerJvm}, in their order: one fork JVM each. All in one with
     * no cap, or with {@link Isolation#CELL}, whose groups are one cell already.
     */
    private List<List<Cell>> chunks(List<Cell> cells) {
        Integer cap = options.cellsPerJvm();
        if (cap == null || options.isolation() != Isolation.MODEL || cells.size() <= cap) {
            return cells.isEmpty() ? List.of() : List.of(cells);
        }
        List<List<Cell>> chunks = new ArrayList<>();
        for (int from = 0; from < cells.size(); from += cap) {
            chunks.add(List.copyOf(cells.subList(from, Math.min(cells.size(), from + cap))));
        }
        return chunks;
    }

    private RunConfig config(Map<String, ResolvedModel> models, String mavenCommand, String jvmCommand, RunConfig.ShardInfo shard) {
        var policy = options.measurePolicy();
        return new RunConfig(options.backends(), options.devices(),
                models.values().stream().map(SweepRunner::modelInfo).toList(),
                options.seqLens(), options.bucketsFile(), options.batches(), policy.warmup().fixedPasses(),
                policy.stop().fixedPasses(), options.forks(), options.intraOpThreads(), options.interOpThreads(), options.seed(),
                options.allowCpuFallback(), options.forkJvmArgs(), options.isolation().label(), policy, options.malloc().label(),
                options.forkAllocatorEnvironment(), Cell.skipped(options),
                mavenCommand, jvmCommand, options.hostLabel(), shard, null, options.forkDeparture(),
                options.isolation() == Isolation.MODEL ? options.cellsPerJvm() : null, options.forkEngineEnvironment(),
                options.jitCompilation().label());
    }

    private static RunConfig.ModelInfo modelInfo(ResolvedModel model) {
        return new RunConfig.ModelInfo(model.name(), model.sha256(), model.sizeBytes(), model.description());
    }
}
