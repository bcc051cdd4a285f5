package io.inferbench.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Follows one job's fork JVM through its events: tells the reporter each cell's end as it happens, answers
 * {@link ForkExecutor.Next#STOP} once {@link SlowJvm} says the JVM has gone slow, and, when the JVM has ended, says what
 * it did as one {@link ForkOutcome}. One per JVM; nothing it holds outlives it.
 */
final class ForkWatch implements ForkExecutor.Listener, ForkEvent.Handler<ForkExecutor.Next> {
    private final ForkJob job;
    private final ForkPlan plan;
    /** Says when the JVM has gone slow; null where it is not watched. */
    private final SlowJvm slow;
    /** Each cell's p50 in earlier fork JVMs, what {@link #slow} holds this JVM's cells against. */
    private final Map<String, List<Double>> earlierP50sMs;
    private final ForkReporter reporter;
    /** Told of each cell the fork ended, measured or failed, as soon as its files are written; false stops the JVM. */
    private final java.util.function.Predicate<Cell> cellEnded;
    private final List<String> ended = new ArrayList<>();
    private final Map<String, Double> p50sMs = new LinkedHashMap<>();
    private ForkEvent.Ready ready;
    private String openError;
    private String running;
    private long runningSinceNs;
    private double cellSeconds;
    private double lastCellSeconds;
    private String stoppedAsSlow;

    /**
     * @param cellEnded told of each cell the fork ended, as soon as the fork has written its measurement or its error
     *                  (the run keeps it in run.json from then on); answering false stops the JVM
     */
    ForkWatch(ForkJob job, ForkPlan plan, SlowJvm slow, Map<String, List<Double>> earlierP50sMs, ForkReporter reporter,
              java.util.function.Predicate<Cell> cellEnded) {
        this.job = job;
        this.plan = plan;
        this.slow = slow;
        this.earlierP50sMs = earlierP50sMs;
        this.reporter = reporter;
        this.cellEnded = cellEnded;
    }

    @Override
    public ForkExecutor.Next on(ForkEvent event) {
        return event.handle(this);
    }

    @Override
    public ForkExecutor.Next ready(ForkEvent.Ready event) {
        ready = event;
        return ForkExecutor.Next.GO_ON;
    }

    @Override
    public ForkExecutor.Next openFailed(ForkEvent.OpenFailed event) {
        openError = event.error();
        return ForkExecutor.Next.GO_ON;
    }

    @Override
    public ForkExecutor.Next cellStarted(ForkEvent.CellStarted event) {
        running = event.cellId();
        runningSinceNs = System.nanoTime();
        return ForkExecutor.Next.GO_ON;
    }

    @Override
    public ForkExecutor.Next cellDone(ForkEvent.CellDone event) {
        Cell cell = cellEnded(event.cellId());
        reporter.cellDone(job, cell, event, lastCellSeconds);
        p50sMs.put(cell.id(), event.p50Ms());
        if (!cellEnded.test(cell)) {
            return ForkExecutor.Next.STOP;
        }
        String why = slow == null ? null
                : slow.cellDone(cell.id(), event.p50Ms(), event.stop(), earlierP50sMs.getOrDefault(cell.id(), List.of()));
        if (why == null || stoppedAsSlow != null) {
            return ForkExecutor.Next.GO_ON;
        }
        stoppedAsSlow = why;
        reporter.stoppingSlowJvm(job, why);
        return ForkExecutor.Next.STOP;
    }

    @Override
    public ForkExecutor.Next cellFailed(ForkEvent.CellFailed event) {
        Cell cell = cellEnded(event.cellId());
        reporter.cellFailed(job, cell, event.error(), lastCellSeconds);
        logTrace(cell);
        return cellEnded.test(cell) ? ForkExecutor.Next.GO_ON : ForkExecutor.Next.STOP;
    }

    /**
     * The failed cell's stack trace, as its fork wrote it beside its measurement, into console.log: the place a user looks
     * for why their code failed (the console has its first line).
     */
    private void logTrace(Cell cell) {
        plan.cells().stream().filter(c -> c.seqLen() == cell.seqLen() && c.batch() == cell.batch()).findFirst()
                .map(c -> c.outputDir().resolve(plan.fileName("error")))
                .filter(Files::isRegularFile)
                .ifPresent(file -> {
                    try {
                        reporter.log("[inferbench] " + cell.id() + " fork " + job.round() + " failed with:"
                                + System.lineSeparator() + Files.readString(file, StandardCharsets.UTF_8).strip());
                    } catch (IOException e) {
                        reporter.log("[inferbench] " + cell.id() + ": its error file " + file + " could not be read (" + e + ")");
                    }
                });
    }

    private Cell cellEnded(String cellId) {
        lastCellSeconds = (System.nanoTime() - runningSinceNs) / 1e9;
        cellSeconds += lastCellSeconds;
        ended.add(cellId);
        running = null;
        return job.cells().stream().filter(c -> c.id().equals(cellId)).findFirst().orElseThrow(() ->
                new IllegalStateException("the fork JVM reported " + cellId + ", which is not one of its cells " + job.cells()));
    }

    /** What the JVM did, once it has ended. */
    ForkOutcome outcome(ForkExecutor.ForkExit exit, String launchFailure, double wallSeconds) {
        List<Cell> unreached = ready == null ? List.of()
                : job.cells().stream().filter(c -> !ended.contains(c.id()) && !c.id().equals(running)).toList();
        return new ForkOutcome(job, new ForkOutcome.Jvm(plan, exit, launchFailure, ready, openError, running, stoppedAsSlow),
                ended, unreached, p50sMs, wallSeconds, cellSeconds);
    }
}
