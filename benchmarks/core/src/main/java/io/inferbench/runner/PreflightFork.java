package io.inferbench.runner;

import io.inferbench.BenchmarkException;
import io.inferbench.analysis.SeriesKey;
import io.inferbench.engine.Pairing;
import io.inferbench.measure.MeasurePolicy;
import io.inferbench.measure.StopPolicy;
import io.inferbench.measure.WarmupPolicy;
import io.inferbench.results.RunStore;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The preflight of a user's own code ({@code -Dbench.target}), run in a fork JVM of its own instead of the sweep's:
 * the user's call may throw, return nothing, run out of memory, exit the JVM or never return, and none of that may end
 * or hang the run that would measure its healthy shapes. The fork opens the target and runs one cold unit and
 * {@link Preflight#PROBE_PASSES} timed ones at the plan's smallest and largest shapes, held to the call timeout by its
 * watchdog ({@link CallWatchdog}).
 *
 * <p>What it decides: a target whose session does not open, or that fails at every shape it was tried at, is refused
 * as bad input (exit code 2), with the cause; one that fails at some shape is measured, the failing shape's cells
 * failing alone in the sweep, and the console says so now.
 */
final class PreflightFork {
    private PreflightFork() {
    }

    /** What one probed shape did: its probe, or why it failed. */
    private record Shape(int seq, int batch, Preflight.TrialPass probe, String failure) {
        String words() {
            return "batch " + batch + (seq == 0 ? "" : " x seq " + seq);
        }
    }

    static CellKind.PairingCheck check(ForkExecutor executor, SweepOptions options, CellKind kind, Pairing pairing,
                                       PrintStream log) {
        int[] smallest = Preflight.smallest(options);
        int[] largest = Preflight.largest(options);
        List<int[]> shapes = new ArrayList<>(List.of(smallest));
        if (largest[0] != smallest[0] || largest[1] != smallest[1]) {
            shapes.add(largest);
        }
        Path dir;
        try {
            dir = Files.createTempDirectory("inferbench-preflight-fork");
        } catch (IOException e) {
            throw new BenchmarkException("Could not make a folder for the preflight's fork JVM: " + e, e);
        }
        try {
            return check(executor, options, kind, pairing, log, shapes, dir);
        } catch (IOException e) {
            throw new BenchmarkException("Could not make a folder for the preflight's fork JVM: " + e, e);
        } finally {
            RunStore.deleteQuietly(dir);
        }
    }

    private static CellKind.PairingCheck check(ForkExecutor executor, SweepOptions options, CellKind kind, Pairing pairing,
                                               PrintStream log, List<int[]> shapes, Path dir) throws IOException {
        List<ForkPlan.PlannedCell> cells = new ArrayList<>();
        for (int i = 0; i < shapes.size(); i++) {
            cells.add(new ForkPlan.PlannedCell(shapes.get(i)[0], shapes.get(i)[1],
                    Files.createDirectories(dir.resolve("cell-" + i))));
        }
        MeasurePolicy asked = options.rules().measurePolicy();
        WarmupPolicy w = asked.warmup();
        StopPolicy s = asked.stop();
        MeasurePolicy probing = new MeasurePolicy(
                new WarmupPolicy(1, w.tolerance(), w.windowMs(), w.windowMinPasses(), w.jitQuietShare(), 0, w.capMs()),
                new StopPolicy(Preflight.PROBE_PASSES, s.precision(), s.confidence(), 1, 0, s.capMs()));
        double timeout = options.rules().callTimeoutSeconds(List.of());
        ForkPlan plan = new ForkPlan(0, 1, kind, pairing.engine(), pairing.device(), pairing.model(), cells,
                options.sessionDefaults(), probing, options.engines().nvidiaSmi(), JitCompilation.BACKGROUND,
                new ForkPlan.Guard(timeout, ProcessHandle.current().pid()));
        Path planFile = dir.resolve("plan.json");
        plan.write(planFile);
        Events events = new Events();
        ForkExecutor.ForkExit exit;
        try {
            exit = executor.run(plan, planFile, dir.resolve("console.log"), event -> event.handle(events));
        } catch (Exception e) {
            throw new BenchmarkException("Could not run the preflight's fork JVM: " + e.getMessage(), e);
        }
        if (events.openFailed != null) {
            throw new BenchmarkException(events.openFailed);
        }
        SeriesKey.EngineModel target = new SeriesKey.EngineModel(pairing.engine(), pairing.device(), pairing.model());
        List<Shape> outcomes = new ArrayList<>();
        for (ForkPlan.PlannedCell planned : cells) {
            String id = plan.cell(planned).id();
            ForkEvent.CellDone event = events.done.get(id);
            String last = ForkOutcome.lastLines(exit.outputTail() == null ? "" : exit.outputTail(), 5);
            String output = last.isEmpty() ? "" : "; its last output: " + last;
            String why = events.failed.containsKey(id) ? events.failed.get(id)
                    : id.equals(events.running) ? "the fork JVM " + JvmDeath.describe(exit) + " while running it" + output
                    : event == null ? "not reached: the fork JVM " + JvmDeath.describe(exit) + " before it" + output : null;
            outcomes.add(new Shape(planned.seqLen(), planned.batch(), event == null ? null : new Preflight.TrialPass(target,
                    (long) planned.batch() * Math.max(1, planned.seqLen()), event.p50Ms()), why));
        }
        if (exit.exitCode() == ForkRun.TIMED_OUT && events.running == null && outcomes.stream().allMatch(o -> o.failure() == null)) {
            // Every shape measured, then the JVM was halted by its watchdog: the session's close() never returned, and
            // would hold every fork of the run as long.
            throw new BenchmarkException(pairing.engine() + "'s session did not close: " + io.inferbench.Text.shorten(
                    exit.outputTail().lines().filter(l -> l.contains("timed out after")).reduce((x, y) -> y)
                            .orElse("its close() did not return within " + io.inferbench.Text.number(timeout, 0) + " s"), 400)
                    + ". Make its close() return (stop what it started, join its threads with a limit), then run again");
        }
        List<Shape> failures = outcomes.stream().filter(o -> o.failure() != null).toList();
        if (failures.size() == outcomes.size()) {
            throw new BenchmarkException("It failed at every shape the preflight tried, so nothing could be measured: "
                    + String.join("; ", failures.stream().map(f -> f.words() + ": " + f.failure()).toList()));
        }
        for (Shape f : failures) {
            log.printf("[inferbench] preflight: %s on %s failed at %s (%s); the run goes on, and the cells that fail "
                    + "fail alone%n", pairing.engine(), pairing.device(), f.words(), f.failure());
        }
        return new CellKind.PairingCheck(outcomes.stream().filter(o -> o.probe() != null).map(Shape::probe).toList(),
                null, List.of(), failures.stream().map(Shape::words).toList());
    }

    /** What the probe fork reported, by cell id: the cells it measured, the ones that failed, the one it was in. */
    private static final class Events implements ForkEvent.Handler<ForkExecutor.Next> {
        private final Map<String, ForkEvent.CellDone> done = new LinkedHashMap<>();
        private final Map<String, String> failed = new LinkedHashMap<>();
        private String openFailed;
        private String running;

        @Override
        public ForkExecutor.Next ready(ForkEvent.Ready event) {
            return ForkExecutor.Next.GO_ON;
        }

        @Override
        public ForkExecutor.Next openFailed(ForkEvent.OpenFailed event) {
            openFailed = event.error();
            return ForkExecutor.Next.GO_ON;
        }

        @Override
        public ForkExecutor.Next cellStarted(ForkEvent.CellStarted event) {
            running = event.cellId();
            return ForkExecutor.Next.GO_ON;
        }

        @Override
        public ForkExecutor.Next cellDone(ForkEvent.CellDone event) {
            done.put(event.cellId(), event);
            running = null;
            return ForkExecutor.Next.GO_ON;
        }

        @Override
        public ForkExecutor.Next cellFailed(ForkEvent.CellFailed event) {
            failed.put(event.cellId(), event.error());
            running = null;
            return ForkExecutor.Next.GO_ON;
        }
    }
}
