package io.inferbench.runner;

import io.inferbench.Text;
import io.inferbench.results.CellResult;
import io.inferbench.results.DepartedFork;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * After the last JVM of the departed forks' re-measurement: where a fresh JVM agreed with a fork that departed as fast
 * ({@link ForkDeparture#siblingsInDoubt}), the siblings it departed from are the ones in doubt (two slow JVMs of three
 * make the normal one look fast), and they are measured again the same way, once, kept as {@code doubted}. A departure
 * confirmed on the slow side leaves its siblings, with a line in the log: a machine slower after the rounds reads slow
 * in any JVM.
 */
final class Doubts implements ForkRule {
    private final Remeasurement remeasurement;

    Doubts(Remeasurement remeasurement) {
        this.remeasurement = remeasurement;
    }

    @Override
    public Decision after(SweepState state, ForkOutcome outcome) {
        if (outcome.job().kind() != ForkJob.Kind.DEPARTED || state.queued(ForkJob.Kind.DEPARTED) > 0) {
            return Decision.NONE;
        }
        List<ForkJob> jobs = new ArrayList<>();
        List<String> confirmed = new ArrayList<>();
        List<String> log = new ArrayList<>();
        for (List<Cell> group : state.groups()) {
            Map<Integer, List<Cell>> byRound = new TreeMap<>();
            for (Cell cell : group) {
                CellResult result = state.result(cell);
                if (result == null || !result.measured() || result.departedForks() == null) {
                    continue;
                }
                Map<Integer, Double> p50sMs = ForkDeparture.keptP50sMs(result);
                Map<Integer, Double> siblingsP50Ms = new TreeMap<>(p50sMs);
                result.departedForks().forEach(d -> siblingsP50Ms.remove(d.fork().round()));
                for (DepartedFork d : result.departedForks()) {
                    double fresh = p50sMs.getOrDefault(d.fork().round(), Double.NaN);
                    String siblings = Text.f("its siblings (rounds %s) %s ms", siblingsP50Ms.keySet(),
                            siblingsP50Ms.values().stream().map(v -> Text.f("%.3f", v)).toList());
                    String departure = Text.f("%s fork %d p50 %.3f ms, then %.3f ms in a fresh JVM", cell.id(),
                            d.fork().round(), d.p50Ms(), fresh);
                    if (ForkDeparture.siblingsInDoubt(d.p50Ms(), fresh, siblingsP50Ms.values(), remeasurement.factor())) {
                        siblingsP50Ms.keySet().forEach(r -> byRound.computeIfAbsent(r, k -> new ArrayList<>()).add(cell));
                        confirmed.add(departure + ", " + siblings);
                        break;
                    }
                    if (ForkDeparture.confirmed(d.p50Ms(), fresh, siblingsP50Ms.values(), remeasurement.factor())) {
                        log.add("[inferbench] departure confirmed on the slow side: " + departure + "; " + siblings
                                + " are kept: only a fast departure puts its siblings in doubt");
                    }
                }
            }
            jobs.addAll(remeasurement.jobs(byRound, ForkJob.Kind.DOUBTED));
        }
        if (jobs.isEmpty()) {
            return log.isEmpty() ? Decision.NONE : new Decision(List.of(), false, null, log);
        }
        confirmed.forEach(line -> log.add("[inferbench] departure confirmed: " + line));
        int siblings = jobs.stream().mapToInt(j -> j.cells().size()).sum();
        return new Decision(jobs, false, Text.f("[inferbench] %d fresh measurement(s) agreed with the departed fork, so its "
                + "siblings were the odd ones: measuring %d sibling fork(s) again too, kept as doubted (each in console.log): "
                + "%s", confirmed.size(), siblings, Departures.firstTwo(confirmed)), log);
    }
}
