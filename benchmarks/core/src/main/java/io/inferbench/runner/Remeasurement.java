package io.inferbench.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How forks set aside after the rounds are measured again ({@link Departures}, {@link Doubts}): one fresh JVM per round
 * with such forks (cut by {@code -Dbench.cellsPerJvm}), its cells in a seeded order of its own, different from every
 * round's and from the other kind's.
 *
 * @param factor      {@code -Dbench.forkDeparture}
 * @param cellsPerJvm the most cells in one fork JVM; null for all
 */
record Remeasurement(double factor, long seed, int forks, Integer cellsPerJvm) {
    /** The jobs for one group's cells, by the round whose fork of them is measured again, in round order. */
    List<ForkJob> jobs(Map<Integer, List<Cell>> byRound, ForkJob.Kind kind) {
        int orders = kind == ForkJob.Kind.DEPARTED ? 1 : 2;
        List<ForkJob> jobs = new ArrayList<>();
        byRound.forEach((round, cells) -> jobs.addAll(ForkJob.split(round, Cell.order(cells, seed, round + orders * forks),
                kind, cellsPerJvm)));
        return jobs;
    }
}
