package io.inferbench.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One fork JVM's worth of work: one round's forks of some cells of one engine, device and model, in the order the JVM
 * runs them, and why the job exists. The sweep is a queue of these ({@link ForkRunner}): the rounds are planned before
 * anything runs, and each rule that can ask for more work ({@link ForkRule}) adds jobs of its own.
 *
 * @param round  the fork round whose forks the job measures, 1-based
 * @param cells  in the order the JVM runs them
 * @param kind   what its forks are: a round's, or forks set aside and measured again
 * @param reason why this JVM is started: planned, or for the cells another JVM of the same job did not reach
 */
public record ForkJob(int round, List<Cell> cells, Kind kind, Reason reason) {

    /** What a job's forks are. */
    public enum Kind {
        /** Each cell's fork of the round, measured for the first time. */
        ROUND("round"),
        /** Forks that departed from their siblings ({@link ForkDeparture}), measured again; the departed kept apart. */
        DEPARTED("departed"),
        /** The siblings of a departure that a fresh JVM confirmed as fast, measured again; the doubted kept apart. */
        DOUBTED("doubted");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /**
         * The job measures forks that are set aside: a cell it fails to measure keeps its set-aside fork instead of
         * failing, and its JVM is not watched for going slow (it runs one fork per cell, against nothing of its own).
         */
        public boolean remeasures() {
            return this != ROUND;
        }
    }

    /** Why a job's JVM is started. */
    public enum Reason {
        /** Planned: a round, or a rule's re-measurement. */
        PLANNED(null),
        /** The cells a JVM of the same job had not reached when it crashed ({@link CrashRestart}). */
        CRASH_RESTART("restart after a crash"),
        /** The cells of a JVM the sweep stopped as slow ({@link SlowJvmRest}). */
        SLOW_JVM_REST("rest of a JVM stopped as slow"),
        /** The cell a JVM killed from outside was measuring, and the ones it did not reach ({@link KilledRestart}). */
        KILLED_RESTART("restart after a kill from outside");

        private final String label;

        Reason(String label) {
            this.label = label;
        }
    }

    public ForkJob {
        cells = List.copyOf(cells);
        if (cells.isEmpty()) {
            throw new IllegalArgumentException("a fork job has at least one cell");
        }
        if (round < 1) {
            throw new IllegalArgumentException("rounds count from 1, got " + round);
        }
    }

    /** What the job is, for run.json's {@code forkJvms[].job} and the log: {@code round}, {@code departed, restart after a crash}. */
    public String label() {
        return reason.label == null ? kind.label : kind.label + ", " + reason.label;
    }

    /** The same job for {@code rest} of its cells, started for {@code why}. */
    public ForkJob rest(List<Cell> rest, Reason why) {
        return new ForkJob(round, rest, kind, why);
    }

    /** The job without {@code left}'s cells; null when none of its cells is left. */
    public ForkJob without(Set<Cell> left) {
        List<Cell> kept = cells.stream().filter(c -> !left.contains(c)).toList();
        return kept.isEmpty() ? null : kept.size() == cells.size() ? this : new ForkJob(round, kept, kind, reason);
    }

    /** The engine, device and model: every cell of a job shares them, and so does the JVM that runs it. */
    public Cell first() {
        return cells.get(0);
    }

    /**
     * One job per JVM for {@code cells} of one round, in their order: runs of at most {@code cellsPerJvm} cells (null:
     * all in one). With {@link Isolation#CELL} the cells come one group each, so one per JVM already.
     */
    public static List<ForkJob> split(int round, List<Cell> cells, Kind kind, Integer cellsPerJvm) {
        List<ForkJob> jobs = new ArrayList<>();
        int size = cellsPerJvm == null ? Math.max(1, cells.size()) : cellsPerJvm;
        for (int from = 0; from < cells.size(); from += size) {
            jobs.add(new ForkJob(round, cells.subList(from, Math.min(cells.size(), from + size)), kind, Reason.PLANNED));
        }
        return jobs;
    }
}
