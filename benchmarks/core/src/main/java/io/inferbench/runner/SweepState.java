package io.inferbench.runner;

import io.inferbench.results.CellResult;
import io.inferbench.results.ForkJvm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where a sweep stands between two fork JVMs: the jobs still queued, what each cell has so far, which of its forks are
 * set aside, each cell's p50 in every JVM that measured it, the JVMs run so far, and the rounds whose JVM was stopped as
 * slow. The sweep's loop is its only writer ({@link ForkRunner}, {@link Settlement}); the rules only read it
 * ({@link ForkRule}).
 */
final class SweepState {
    private final List<List<Cell>> groups;
    private final Deque<ForkJob> queue = new ArrayDeque<>();
    private final Map<Cell, CellResult> results = new LinkedHashMap<>();
    private final Map<Cell, ForkFiles> files = new HashMap<>();
    private final Map<String, List<Double>> forkP50sMs = new HashMap<>();
    private final Set<String> stoppedAsSlow = new HashSet<>();
    private final List<ForkJvm> jvms = new ArrayList<>();
    /** How often each cell's fork of a round was killed from outside while measuring it, by {@code cellId#round}. */
    private final Map<String, Integer> kills = new HashMap<>();

    /** @param groups the plan's cells, in plan order, by the fork JVMs of a round ({@link Cell#groups}) */
    SweepState(List<List<Cell>> groups) {
        this.groups = List.copyOf(groups);
        groups.forEach(g -> g.forEach(c -> results.put(c, null)));
    }

    List<List<Cell>> groups() {
        return groups;
    }

    /** Adds jobs to run next, in their order, or after everything queued. */
    void enqueue(List<ForkJob> jobs, boolean next) {
        if (next) {
            for (int i = jobs.size() - 1; i >= 0; i--) {
                queue.addFirst(jobs.get(i));
            }
        } else {
            queue.addAll(jobs);
        }
    }

    /** The next job, taken off the queue; null when there is none. */
    ForkJob nextJob() {
        return queue.pollFirst();
    }

    /** How many queued jobs are of {@code kind}. */
    long queued(ForkJob.Kind kind) {
        return queue.stream().filter(j -> j.kind() == kind).count();
    }

    /** The cell's result so far; null before any fork of it ended. */
    CellResult result(Cell cell) {
        return results.get(cell);
    }

    void setResult(Cell cell, CellResult result) {
        if (!results.containsKey(cell)) {
            throw new IllegalArgumentException(cell.id() + " is not in the plan");
        }
        results.put(cell, result);
    }

    /** Every result so far, in plan order. */
    List<CellResult> results() {
        return results.values().stream().filter(Objects::nonNull).toList();
    }

    /** The cell failed in an earlier round: it is not measured again. */
    boolean failed(Cell cell) {
        CellResult result = results.get(cell);
        return result != null && !result.measured();
    }

    ForkFiles files(Cell cell) {
        return files.getOrDefault(cell, ForkFiles.NONE);
    }

    void setFiles(Cell cell, ForkFiles cellFiles) {
        files.put(cell, cellFiles);
    }

    /** Each cell's p50 in every fork JVM that measured it so far, as their events said, in order; a copy. */
    Map<String, List<Double>> forkP50sMs() {
        Map<String, List<Double>> copy = new HashMap<>();
        forkP50sMs.forEach((cell, p50s) -> copy.put(cell, List.copyOf(p50s)));
        return copy;
    }

    void addForkP50s(Map<String, Double> p50sMs) {
        p50sMs.forEach((cell, p50) -> forkP50sMs.computeIfAbsent(cell, k -> new ArrayList<>()).add(p50));
    }

    /** Whether a JVM of this job's engine, device, model and round was stopped as slow already: once is enough. */
    boolean stoppedAsSlow(ForkJob job) {
        return stoppedAsSlow.contains(slowKey(job));
    }

    void markStoppedAsSlow(ForkJob job) {
        stoppedAsSlow.add(slowKey(job));
    }

    private static String slowKey(ForkJob job) {
        return job.first().series().engineModel() + " round " + job.round();
    }

    /** Counts one more kill from outside of {@code cell}'s fork of {@code round}; returns how many there have been. */
    int addKill(Cell cell, int round) {
        return kills.merge(cell.id() + "#" + round, 1, Integer::sum);
    }

    /** How often {@code cell}'s fork of {@code round} was killed from outside while measuring it. */
    int kills(Cell cell, int round) {
        return kills.getOrDefault(cell.id() + "#" + round, 0);
    }

    List<ForkJvm> jvms() {
        return List.copyOf(jvms);
    }

    void addJvm(ForkJvm jvm) {
        jvms.add(jvm);
    }
}
