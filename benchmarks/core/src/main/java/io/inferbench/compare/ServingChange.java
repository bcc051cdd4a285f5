package io.inferbench.compare;

import io.inferbench.results.LoadPointResult;
import io.inferbench.results.RunResult;
import io.inferbench.results.SlaBoundary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The serving points two runs share, side by side. There is no interval and no verdict: a load point is one run of a
 * queue whose requests are not independent (each one's wait depends on the ones before it), and it is not repeated
 * across forks, so nothing measures its run-to-run spread. The changes are listed for a reader to weigh, and never
 * fail a gate.
 *
 * @param key the point's parameters: engine, device, model, seq, mode, policy, and rate or clients
 */
public record ServingChange(String key, double baselineP50Ms, double candidateP50Ms, double baselineP99Ms,
                            double candidateP99Ms, double baselineAchievedRps, double candidateAchievedRps) {

    public double p50ChangePercent() {
        return 100 * (candidateP50Ms / baselineP50Ms - 1);
    }

    public double p99ChangePercent() {
        return 100 * (candidateP99Ms / baselineP99Ms - 1);
    }

    /** A policy's SLA boundary in both runs (null where a run found none), when both searched the same SLA. */
    public record Boundary(String key, double slaP99Ms, Double baselineMaxRateRps, Double candidateMaxRateRps) {
    }

    static List<ServingChange> points(RunResult baseline, RunResult candidate) {
        if (baseline.serving() == null || candidate.serving() == null) {
            return List.of();
        }
        Map<String, LoadPointResult> base = new LinkedHashMap<>();
        baseline.serving().points().stream().filter(p -> "point".equals(p.purpose()) && p.latencyFromIntendedMs() != null)
                .forEach(p -> base.put(key(p), p));
        List<ServingChange> changes = new ArrayList<>();
        for (LoadPointResult c : candidate.serving().points()) {
            LoadPointResult b = base.get(key(c));
            if (b == null || !"point".equals(c.purpose()) || c.latencyFromIntendedMs() == null) {
                continue;
            }
            changes.add(new ServingChange(key(c), b.latencyFromIntendedMs().p50Ms(), c.latencyFromIntendedMs().p50Ms(),
                    b.latencyFromIntendedMs().p99Ms(), c.latencyFromIntendedMs().p99Ms(), b.achievedRps(), c.achievedRps()));
        }
        return changes;
    }

    static List<Boundary> boundaries(RunResult baseline, RunResult candidate) {
        if (baseline.serving() == null || candidate.serving() == null) {
            return List.of();
        }
        List<Boundary> result = new ArrayList<>();
        for (SlaBoundary c : candidate.serving().slaBoundary()) {
            for (SlaBoundary b : baseline.serving().slaBoundary()) {
                if (key(b).equals(key(c)) && b.slaP99Ms() == c.slaP99Ms()) {
                    result.add(new Boundary(key(c), c.slaP99Ms(), b.maxRateRps(), c.maxRateRps()));
                }
            }
        }
        return result;
    }

    static String key(LoadPointResult p) {
        String load = "closed-loop".equals(p.mode()) ? p.concurrency() + " client(s)" : Objects.toString(p.rateRps()) + " rps";
        return p.backend() + "/" + p.device() + "/" + p.model() + "/seq" + p.seqLen() + " " + p.mode() + " " + p.policy() + " " + load;
    }

    static String key(SlaBoundary b) {
        return b.backend() + "/" + b.device() + "/" + b.model() + " " + b.policy();
    }
}
