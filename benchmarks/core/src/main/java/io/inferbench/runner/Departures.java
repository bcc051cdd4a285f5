package io.inferbench.runner;

import io.inferbench.Text;
import io.inferbench.results.CellResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * After the last JVM of the rounds, every fork that departed from its cell's other forks by more than the factor
 * ({@link ForkDeparture}) is measured again: one fresh JVM per engine, device, model and round with departures (cut by
 * {@code -Dbench.cellsPerJvm}), over those cells, in a seeded order of its own. The departed measurement is set aside,
 * kept in the cell's {@code departedForks} and out of its numbers; each cell is re-measured for a departure once.
 */
final class Departures implements ForkRule {
    private final Remeasurement remeasurement;

    Departures(Remeasurement remeasurement) {
        this.remeasurement = remeasurement;
    }

    @Override
    public Decision after(SweepState state, ForkOutcome outcome) {
        if (outcome.job().kind() != ForkJob.Kind.ROUND || state.queued(ForkJob.Kind.ROUND) > 0) {
            return Decision.NONE;
        }
        List<ForkJob> jobs = new ArrayList<>();
        List<String> found = new ArrayList<>();
        for (List<Cell> group : state.groups()) {
            Map<Integer, List<Cell>> byRound = new TreeMap<>();
            for (Cell cell : group) {
                CellResult result = state.result(cell);
                if (result == null || result.departedForks() != null) {
                    continue;
                }
                for (ForkDeparture.Departure d : ForkDeparture.find(result, remeasurement.factor())) {
                    byRound.computeIfAbsent(d.round(), r -> new ArrayList<>()).add(cell);
                    found.add(Text.f("%s fork %d p50 %.3f ms, x%.2f its forks' median %.3f ms", cell.id(), d.round(),
                            d.p50Ms(), d.ratio(), d.siblingsP50Ms()));
                }
            }
            jobs.addAll(remeasurement.jobs(byRound, ForkJob.Kind.DEPARTED));
        }
        if (found.isEmpty()) {
            return Decision.NONE;
        }
        // One console line whatever the count (the console has a line budget); every fork in the log.
        return new Decision(jobs, false, Text.f("[inferbench] %d fork(s) departed from their siblings by more than x%s "
                        + "(-Dbench.forkDeparture): measuring them again in fresh JVMs, the departed kept in run.json's "
                        + "departedForks (each in console.log): %s", found.size(), Text.plain(remeasurement.factor()), firstTwo(found)),
                found.stream().map(line -> "[inferbench] departed: " + line).toList());
    }

    static String firstTwo(List<String> lines) {
        return String.join("; ", lines.subList(0, Math.min(2, lines.size())))
                + (lines.size() > 2 ? Text.f("; and %d more", lines.size() - 2) : "");
    }
}
