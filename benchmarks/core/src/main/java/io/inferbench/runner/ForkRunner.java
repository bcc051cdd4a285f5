package io.inferbench.runner;

import io.inferbench.Text;
import io.inferbench.probe.CompilerThreads;
import io.inferbench.report.StopTable;
import io.inferbench.results.CellResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.RunStore;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one runner of a run's cells, whatever their kind ({@link CellKind}: forward passes, generations): a queue of
 * {@link ForkJob}s, each one fresh fork JVM over some cells of one round. One loop takes the next job, runs its JVM,
 * records what it did ({@link Settlement}), asks each {@link ForkRule} whether that calls for more jobs, and rewrites
 * {@code run.json} with the cells so far, as the stage that runs it puts them there ({@link Recording}).
 * docs/architecture.md ("The sweep as a queue of fork jobs") has the rules, their order, and a new rule's files.
 *
 * <p><b>Hazards.</b> A cell's forks are spread over the run's rounds, never back to back, so that their spread holds the
 * machine's drift over minutes, which a comparison's interval is built from (docs/statistics-and-compare.md). Nothing
 * finished is lost: each fork writes a cell's measurement as the cell ends, and the run file is rewritten atomically as
 * soon as the fork says so and after each JVM; a run file that cannot be written stops the fork JVM and the sweep
 * ({@link RunStore.WriteFailed}), keeping what was written before.
 */
public final class ForkRunner {
    /** The longest this JVM waits for its compilers to go idle before it starts a fork JVM. */
    static final long QUIET_CAP_MS = 2000;

    private final SweepOptions options;
    private final CellKind kind;
    private final ForkExecutor executor;
    private final PrintStream console;
    private final boolean terminal;
    private final TimeAccount time;

    /** How a stage puts the cells measured so far into its run: the sweep's {@code cells}, generation's own section. */
    @FunctionalInterface
    public interface Recording {
        /**
         * @param finished whether every job has run: the last call, when the run gets its {@code finishedAt}
         */
        RunResult record(RunResult started, List<CellResult> cells, boolean finished);
    }

    /**
     * @param kind     what each cell measures, sent to every fork JVM in its plan
     * @param terminal the console is a terminal, so the progress line can be rewritten in place
     * @param time     where the fork JVMs' start-up and session creation are added up
     */
    public ForkRunner(SweepOptions options, CellKind kind, ForkExecutor executor, PrintStream console, boolean terminal,
                      TimeAccount time) {
        this.options = options;
        this.kind = kind;
        this.executor = executor;
        this.console = console;
        this.terminal = terminal;
        this.time = time;
    }

    /** The sweep's plan in one line, printed before the preflight. */
    public static String planLine(SweepOptions options, CellKind kind, List<Cell> plan) {
        List<List<Cell>> groups = Cell.groups(plan, options.forkJvms().isolation());
        int jvmsPerRound = groups.stream().mapToInt(g -> ForkJob.split(1, g, ForkJob.Kind.ROUND, options.forkJvms().cellsPerJvmInEffect()).size()).sum();
        return Text.f("[inferbench] %s of %d cells x %d fork(s) = %d cell runs in %d fork JVMs (%s isolation): "
                        + "backends %s, devices %s, models %s, seq %s, batch %s; %s; %d intra-op thread(s); allocator %s%s; "
                        + "fork JVM options %s, JIT %s in cells",
                kind.runName(), plan.size(), options.rules().forks(), plan.size() * options.rules().forks(),
                jvmsPerRound * options.rules().forks(),
                options.forkJvms().isolation().label(), options.plan().backends(), options.plan().devices(), options.plan().models(),
                options.isBatchOnly() ? "none (batch only)" : options.plan().seqLens(),
                options.plan().batches(), StopTable.describe(options.rules().measurePolicy()), options.engines().intraOpThreads(),
                options.forkJvms().allocatorInEffect().isEmpty() ? "glibc defaults" : options.forkJvms().allocatorInEffect(),
                options.forkJvms().engineVariablesInEffect().isEmpty() ? ""
                        : "; engine variables " + options.forkJvms().engineVariablesInEffect(),
                options.forkJvms().jvmArgs() == null || options.forkJvms().jvmArgs().isBlank() ? "none" : options.forkJvms().jvmArgs().trim(),
                options.forkJvms().jitCompilation().label())
                + (kind.describe() == null ? "" : "; " + kind.describe())
                + (options.plan().leftOut().isEmpty() ? "" : "; left out: " + String.join("; ", options.plan().leftOut()));
    }

    /**
     * Runs every cell of {@code plan} in every round, and whatever the rules add.
     *
     * @param started   the run as the preflight left it: its conditions, no cells yet
     * @param plan      the cells to measure, in plan order (a shard's part, or the whole plan)
     * @param store     the run's folder, already holding {@code started}
     * @param preflight what the preflight found: the models, and each shape's probe for the estimate of the time left
     * @param recording how the cells go into the run
     * @return {@code started} with every cell and fork JVM, as also written to {@code run.json}
     */
    public RunResult run(RunResult started, List<Cell> plan, RunStore store, Preflight.Result preflight, Recording recording) {
        Measuring measuring = open(started, plan, store, preflight, recording, options.rules().forks(), null);
        for (int round = 1; round <= options.rules().forks(); round++) {
            measuring.enqueueRound(round);
        }
        measuring.drain();
        return measuring.finish();
    }

    /**
     * Starts measuring {@code plan} without queuing anything: the caller queues rounds ({@link Measuring#enqueueRound})
     * and runs them ({@link Measuring#drain}) as it decides, as an A/B run does pair by pair, then ends it
     * ({@link Measuring#finish}). {@link #run} is this with every round queued before the first runs.
     *
     * @param plannedRounds how many rounds the caller expects to run at most, for the progress line and its estimate
     * @param label         what the progress lines call this measurement when a run has two (an A/B run's subjects);
     *                      null for none
     */
    public Measuring open(RunResult started, List<Cell> plan, RunStore store, Preflight.Result preflight, Recording recording,
                          int plannedRounds, String label) {
        return new Measuring(started, plan, store, preflight, recording, plannedRounds, label);
    }

    /** One measurement of a plan's cells in progress: its queue, its state and its run file. */
    public final class Measuring {
        private final RunResult started;
        private final RunStore store;
        private final Recording recording;
        private final List<List<Cell>> groups;
        private final SweepState state;
        private final ForkReporter reporter;
        private final Settlement settlement;
        private final ForkPlan.Guard guard;
        private final List<ForkRule> rules = rules();

        private Measuring(RunResult started, List<Cell> plan, RunStore store, Preflight.Result preflight, Recording recording,
                          int plannedRounds, String label) {
            this.started = started;
            this.store = store;
            this.recording = recording;
            this.groups = Cell.groups(plan, options.forkJvms().isolation());
            this.state = new SweepState(groups);
            List<ForkJob> planned = new ArrayList<>();
            for (int round = 1; round <= plannedRounds; round++) {
                planned.addAll(roundJobs(round));
            }
            Progress progress = new Progress(console, terminal, store.consoleLog(), plan.size() * plannedRounds, label);
            for (String pair : started.config().plan().skippedPairs()) {
                progress.say("[inferbench] not planned: " + pair);
            }
            double callTimeoutSeconds = options.rules().callTimeoutSeconds(preflight.trials());
            String link = label == null ? store.linkAsLatest(RunStore.Subject.of(started.config().plan())) : null;
            progress.say("[inferbench] writing " + store.runFile() + (link == null ? "" : " (" + link + ")")
                    + "; JMH's and the forked JVMs' own output: " + store.consoleLog()
                    + (options.output().verbose() ? " (and echoed here, -Dbench.verbose=true)" : " (-Dbench.verbose=true to see it here)")
                    + "; a call not returned after " + Text.number(callTimeoutSeconds, 0) + " s fails its cell ("
                    + (options.rules().callTimeoutSeconds() != null ? "-Dbench.callTimeoutSeconds"
                    : "auto: 20x the slowest preflight unit, at least 120 s") + ")");
            EtaEstimator eta = new EtaEstimator();
            preflight.trials().forEach(p -> eta.probe(p.target(), p.tokens(), p.passMs()));
            this.guard = new ForkPlan.Guard(callTimeoutSeconds, ProcessHandle.current().pid());
            this.reporter = new ForkReporter(progress, eta, planned, kind);
            this.settlement = new Settlement(state, plan, store, preflight.modelInfos(), options.forkJvms().isolation(), reporter);
        }

        private List<ForkJob> roundJobs(int round) {
            return roundJobs(round, null);
        }

        private List<ForkJob> roundJobs(int round, java.util.Collection<Cell> only) {
            List<ForkJob> jobs = new ArrayList<>();
            for (List<Cell> all : groups) {
                List<Cell> group = only == null ? all : all.stream().filter(only::contains).toList();
                if (!group.isEmpty()) {
                    jobs.addAll(ForkJob.split(round, Cell.order(group, options.rules().seed(), round), ForkJob.Kind.ROUND,
                            options.forkJvms().cellsPerJvmInEffect()));
                }
            }
            return jobs;
        }

        /** Queues fork round {@code round}: one JVM per group of the plan's cells, after everything queued. */
        public void enqueueRound(int round) {
            state.enqueue(roundJobs(round), false);
        }

        /** Queues fork round {@code round} of {@code only} those cells, as {@link #enqueueRound(int)} does all of them. */
        public void enqueueRound(int round, java.util.Collection<Cell> only) {
            state.enqueue(roundJobs(round, only), false);
        }

        /**
         * Runs every queued job, and what the rules add after each, rewriting the run file after each cell a fork ends
         * and after each JVM.
         *
         * @throws RunStore.WriteFailed when the run file could not be written (a full disk, a folder made read-only): the
         *                              fork JVM is stopped, and what was written before is kept
         */
        public void drain() {
            ForkJob job;
            while ((job = state.nextJob()) != null) {
                reporter.jobStarting(job);
                ForkJob running = job;
                java.util.concurrent.atomic.AtomicReference<RunStore.WriteFailed> writeFailed =
                        new java.util.concurrent.atomic.AtomicReference<>();
                ForkOutcome outcome = runJob(job, state, settlement, store, reporter, guard, cell -> {
                    if (running.kind().remeasures() || writeFailed.get() != null) {
                        return writeFailed.get() == null; // a re-measurement replaces a fork only once its JVM has ended
                    }
                    try {
                        settlement.cellEnded(cell, running.round());
                        store.writeRun(current());
                        return true;
                    } catch (RunStore.WriteFailed e) {
                        writeFailed.set(e);
                        return false;
                    }
                });
                settlement.record(outcome);
                if (writeFailed.get() != null) {
                    throw writeFailed.get();
                }
                for (ForkRule rule : rules) {
                    ForkRule.Decision decision = rule.after(state, outcome);
                    state.enqueue(decision.jobs(), decision.next());
                    reporter.decided(decision);
                }
                if (outcome.ranJvm()) {
                    store.writeRun(current());
                }
            }
        }

        /** Every cell's result so far, in plan order (a cell none of whose forks has ended yet is left out). */
        public List<CellResult> results() {
            return state.results();
        }

        /** The run with the cells and fork JVMs so far, not finished. */
        public RunResult current() {
            return recording.record(started, state.results(), false).withForkJvms(state.jvms());
        }

        /** Ends the measurement: the run finished, written with its JMH results. */
        public RunResult finish() {
            RunResult run = recording.record(started, state.results(), true).withForkJvms(state.jvms());
            store.writeRun(run);
            RunStore.deleteQuietly(store.consoleLog().resolveSibling("tmp"));
            store.writeJmhResults();
            reporter.finished();
            return run;
        }
    }

    /** The rules, in the order they are asked: the rest of a JVM's cells first, then what follows the rounds. */
    private List<ForkRule> rules() {
        List<ForkRule> rules = new ArrayList<>(List.of(new KilledRestart(), new CrashRestart(), new SlowJvmRest()));
        if (options.rules().forkDeparture() != null) {
            SweepOptions.Rules r = options.rules();
            Remeasurement remeasurement = new Remeasurement(r.forkDeparture(), r.seed(), r.forks(),
                    options.forkJvms().cellsPerJvmInEffect());
            rules.add(new Departures(remeasurement));
            rules.add(new Doubts(remeasurement));
        }
        return rules;
    }

    /**
     * Runs one job's fork JVM, without the cells that failed in an earlier round (none left: no JVM), and says what it
     * did. Before a re-measurement, the forks it measures again are set aside.
     */
    private ForkOutcome runJob(ForkJob planned, SweepState state, Settlement settlement, RunStore store,
                               ForkReporter reporter, ForkPlan.Guard guard, java.util.function.Predicate<Cell> cellEnded) {
        Set<Cell> failed = new LinkedHashSet<>();
        for (Cell cell : planned.cells()) {
            if (!planned.kind().remeasures() && state.failed(cell)) {
                failed.add(cell);
                reporter.skipped(cell, planned.round());
            }
        }
        ForkJob job = planned.without(failed);
        if (job == null) {
            return ForkOutcome.noJvm(planned);
        }
        if (job.kind().remeasures() && job.reason() == ForkJob.Reason.PLANNED) {
            settlement.setAside(job);
        }
        int jvm = state.jvms().size() + 1;
        Cell first = job.first();
        ForkPlan plan = new ForkPlan(jvm, job.round(), kind, first.backend(), first.device(), first.model(),
                job.cells().stream().map(c -> new ForkPlan.PlannedCell(c.seqLen(), c.batch(), settlement.forkDir(c))).toList(),
                options.sessionDefaults(), options.rules().measurePolicy(), options.engines().nvidiaSmi(), options.forkJvms().jitCompilation(),
                guard);
        Path planFile = store.forkPlanFile(jvm);
        plan.write(planFile);
        boolean watched = !job.kind().remeasures() && job.cells().size() > 1 && options.rules().forkDeparture() != null
                && !state.stoppedAsSlow(job);
        ForkWatch watch = new ForkWatch(job, plan, watched ? new SlowJvm(options.rules().forkDeparture()) : null,
                state.forkP50sMs(), reporter, cellEnded);
        // What this JVM's compilers still have to do (the preflight's code, the last fork's aggregation) is done
        // before the fork starts, not on the cores its first cell measures on (CompilerThreads).
        CompilerThreads.ofThisJvm().awaitIdle(null, QUIET_CAP_MS);
        long startNs = System.nanoTime();
        time.jvmStarted();
        ForkExecutor.ForkExit exit;
        String launchFailure = null;
        try {
            exit = executor.run(plan, planFile, store.consoleLog(), watch);
        } catch (Exception e) {
            launchFailure = String.valueOf(e.getMessage());
            exit = new ForkExecutor.ForkExit(-1, -1, System.currentTimeMillis(), String.valueOf(e));
        }
        ForkOutcome outcome = watch.outcome(exit, launchFailure, (System.nanoTime() - startNs) / 1e9);
        if (outcome.jvmStartMs() != null) {
            time.add(TimeAccount.Phase.JVM_START, outcome.jvmStartMs() / 1000);
        }
        if (outcome.ready() != null) {
            time.add(TimeAccount.Phase.ENGINE_AND_SESSION, (outcome.ready().engineLoadMs() + outcome.ready().sessionCreateMs()) / 1000);
        }
        reporter.jvmEnded(outcome);
        return outcome;
    }
}
